"""Interaction callbacks, followups and edits through the interaction token."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits, payloads
from .bodies import read_body
from .messaging import create_message, delete_message, edit_message
from .server import error, no_content, reply
from .state import EPHEMERAL, INTERACTION_DEADLINE, LOADING, Interaction, Message

if TYPE_CHECKING:
    from .server import DiscordDouble

PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE = 1, 4, 5, 6, 7
AUTOCOMPLETE, MODAL = 8, 9
COMPONENT, MODAL_SUBMIT = 3, 5


async def callback(double: DiscordDouble, request: web.Request) -> web.Response:
    state = double.state
    inter = state.interactions.get(int(request.match_info["interaction_id"]))
    if inter is None or inter.token != request.match_info["token"]:
        double.violation("unknown-interaction", "callback for an interaction Discord never sent",
                         request)
        return error(404, 10062, "Unknown interaction")
    if inter.received_at is None:
        inter.received_at = state.clock.now()
    body, uploads = await read_body(request)
    kind = int(body.get("type", 0))
    data: dict[str, Any] = body.get("data") or {}
    if inter.response_type is not None:
        if not inter.allow_double_ack:
            double.violation("double-ack", f"interaction {inter.id} answered twice (first "
                             f"type {inter.response_type}, then type {kind})", request)
        double.record(request, "interaction_response", None, body, uploads, 400)
        return error(400, 40060, "Interaction has already been acknowledged.")
    elapsed = state.clock.now() - inter.created_at
    if elapsed > INTERACTION_DEADLINE:
        double.violation("deadline", f"interaction {inter.id} first answered after "
                         f"{elapsed:.2f} s (Discord allows {INTERACTION_DEADLINE:.0f} s)", request)
        double.record(request, "interaction_response", None, body, uploads, 404)
        return error(404, 10062, "Unknown interaction")
    if kind in (DEFERRED_UPDATE, UPDATE) and inter.type not in (COMPONENT, MODAL_SUBMIT):
        double.violation("bad-response-type", f"response type {kind} is only for components",
                         request)
        return error(400, 40004, "Interaction response type not allowed here")
    message: Message | None = None
    if kind == MESSAGE:
        made = await create_message(double, request, inter.channel, data, uploads,
                                    kind="interaction_response", interaction=inter,
                                    msg_type=20 if inter.type == 2 else 0)
        if isinstance(made, web.Response):
            return made
        message = made
    elif kind == DEFERRED_MESSAGE:
        flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL)
        made = await create_message(double, request, inter.channel, {"content": ""}, [],
                                    kind="interaction_response", interaction=inter,
                                    msg_type=20 if inter.type == 2 else 0, forced_flags=flags)
        assert not isinstance(made, web.Response)
        message = made
    elif kind in (DEFERRED_UPDATE, UPDATE):
        message = state.messages.get(inter.source_message_id or 0)
        if message is None or message.deleted:
            return error(404, 10008, "Unknown Message")
        if kind == UPDATE:
            failed = await edit_message(double, request, message, data, uploads,
                                        kind="interaction_response")
            if failed is not None:
                return failed
        else:
            double.record(request, "interaction_response", message.audience, body, [], 200)
    elif kind == MODAL:
        problems = limits.check_modal(data)
        for problem in problems:
            double.violation("limit", problem, request)
        double.record(request, "interaction_response", None, body, [], 400 if problems else 200)
        if problems:
            return error(400, 50035, "Invalid Form Body: " + "; ".join(problems))
        inter.modal = data
    elif kind in (PONG, AUTOCOMPLETE):
        double.record(request, "interaction_response", None, body, [], 200)
    else:
        return error(400, 50035, f"Invalid Form Body: unknown response type {kind}")
    inter.response_type = kind
    inter.response_at = state.clock.now()
    if message is not None:
        inter.original_message_id = message.id
        inter.ephemeral = message.ephemeral_to is not None
    return _callback_answer(double, request, inter, kind, message)


def _callback_answer(double: DiscordDouble, request: web.Request, inter: Interaction, kind: int,
                     message: Message | None) -> web.Response:
    if request.query.get("with_response") not in ("1", "true", "True"):
        return no_content()
    answer: dict[str, Any] = {"interaction": {
        "id": str(inter.id), "type": inter.type,
        "response_message_loading": kind == DEFERRED_MESSAGE,
        "response_message_ephemeral": inter.ephemeral,
    }}
    if message is not None:
        answer["interaction"]["response_message_id"] = str(message.id)
    resource: dict[str, Any] = {"type": kind}
    if message is not None and kind in (MESSAGE, DEFERRED_MESSAGE, UPDATE):
        resource["message"] = payloads.message(double.state, message)
    answer["resource"] = resource
    return reply(answer)


def _token_owner(double: DiscordDouble, request: web.Request) -> Interaction | web.Response:
    """The interaction behind a webhook token, or Discord's answer for a bad one."""
    state = double.state
    inter = state.by_token.get(request.match_info["token"])
    if request.match_info["app_id"] != str(state.application_id):
        double.violation("unknown-webhook", "webhook id is not the application id", request)
        return error(404, 10015, "Unknown Webhook")
    if inter is None:
        double.violation("unknown-token", "webhook call with a token Discord never issued",
                         request)
        return error(401, 50027, "Invalid Webhook Token")
    if inter.expired(state.clock.now()):
        double.violation("expired-token", f"interaction {inter.id}'s token used "
                         f"{state.clock.now() - inter.created_at:.0f} s after the interaction "
                         "(it lasts 15 minutes)", request)
        return error(401, 50027, "Invalid Webhook Token")
    return inter


def _owned_message(double: DiscordDouble, inter: Interaction, which: str) -> Message | None:
    if which == "@original":
        message_id = inter.original_message_id
    else:
        message_id = int(which)
        if message_id not in (inter.original_message_id, *inter.followup_ids):
            return None
    message = double.state.messages.get(message_id or 0)
    return None if message is None or message.deleted else message


async def followup(double: DiscordDouble, request: web.Request) -> web.Response:
    owner = _token_owner(double, request)
    if isinstance(owner, web.Response):
        return owner
    inter = owner
    body, uploads = await read_body(request)
    if inter.response_type is None:
        double.violation("followup-before-response", f"followup for interaction {inter.id} "
                         "before its initial response", request)
        return error(404, 10015, "Unknown Webhook")
    original = double.state.messages.get(inter.original_message_id or 0)
    if (inter.response_type == DEFERRED_MESSAGE and not inter.answered_first_followup
            and original is not None):
        # The first followup after a deferral fills in the "thinking" message, keeping the
        # deferral's visibility (Discord ignores the followup's own ephemeral flag).
        if (body.get("flags") or 0) & EPHEMERAL and original.ephemeral_to is None:
            double.violation("followup-visibility", f"interaction {inter.id}: the followup asks "
                             "to be ephemeral, but the first followup after a public defer "
                             "replaces the public 'thinking' message: everyone sees it", request)
        failed = await edit_message(double, request, original, body, uploads, kind="followup")
        if failed is not None:
            return failed
        inter.answered_first_followup = True
        return reply(payloads.message(double.state, original))
    made = await create_message(double, request, inter.channel, body, uploads, kind="followup",
                                interaction=inter)
    if isinstance(made, web.Response):
        return made
    inter.followup_ids.append(made.id)
    return reply(payloads.message(double.state, made))


async def webhook_message(double: DiscordDouble, request: web.Request) -> web.Response:
    owner = _token_owner(double, request)
    if isinstance(owner, web.Response):
        return owner
    inter = owner
    message = _owned_message(double, inter, request.match_info["message_id"])
    if message is None:
        return error(404, 10008, "Unknown Message")
    if request.method == "GET":
        return reply(payloads.message(double.state, message))
    if request.method == "DELETE":
        await delete_message(double, request, message)
        return no_content()
    body, uploads = await read_body(request)
    if message.latest.flags & LOADING:
        inter.answered_first_followup = True
    failed = await edit_message(double, request, message, body, uploads, kind="edit")
    return failed or reply(payloads.message(double.state, message))


ROUTES = [
    ("POST", "/interactions/{interaction_id}/{token}/callback", callback),
    ("POST", "/webhooks/{app_id}/{token}", followup),
    ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_message),
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_message),
    ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_message),
]
