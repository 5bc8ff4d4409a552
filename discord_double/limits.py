"""Discord's limits on what a bot may send. Each check returns readable problems, not raises.

Numbers from Discord's API reference (message, embed, component and modal objects).
"""

from __future__ import annotations

from typing import Any

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
SELECT_OPTIONS_MAX = 25
SELECT_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
BUTTON_LABEL_MAX = 80
CUSTOM_ID_MAX = 100
MODAL_TITLE_MAX = 45
COMPONENTS_V2 = 1 << 15
# Edits of a message older than an hour: Discord allows only a small budget of them
# (it does not publish the figure) and then answers 400 with code 30046.
OLD_MESSAGE_AGE = 3600.0
OLD_MESSAGE_EDITS = 3
OLD_MESSAGE_EDITS_CODE = 30046

ACTION_ROW, BUTTON, TEXT_INPUT = 1, 2, 4
SELECTS = {3, 5, 6, 7, 8}
LINK_STYLE, PREMIUM_STYLE = 5, 6


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_embeds(embeds: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(embeds) > EMBEDS_MAX:
        problems.append(f"{len(embeds)} embeds (at most {EMBEDS_MAX})")
    total = 0
    for i, e in enumerate(embeds):
        sized = {
            "title": (_length(e.get("title")), EMBED_TITLE_MAX),
            "description": (_length(e.get("description")), EMBED_DESCRIPTION_MAX),
            "footer.text": (_length((e.get("footer") or {}).get("text")), EMBED_FOOTER_MAX),
            "author.name": (_length((e.get("author") or {}).get("name")), EMBED_AUTHOR_MAX),
        }
        for name, (size, limit) in sized.items():
            total += size
            if size > limit:
                problems.append(f"embed {i} {name} has {size} characters (at most {limit})")
        fields = e.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            problems.append(f"embed {i} has {len(fields)} fields (at most {EMBED_FIELDS_MAX})")
        for j, f in enumerate(fields):
            name_len, value_len = _length(f.get("name")), _length(f.get("value"))
            total += name_len + value_len
            if name_len > EMBED_FIELD_NAME_MAX:
                problems.append(f"embed {i} field {j} name has {name_len} characters "
                                f"(at most {EMBED_FIELD_NAME_MAX})")
            if value_len > EMBED_FIELD_VALUE_MAX:
                problems.append(f"embed {i} field {j} value has {value_len} characters "
                                f"(at most {EMBED_FIELD_VALUE_MAX})")
    if total > EMBED_TOTAL_MAX:
        problems.append(f"embeds total {total} characters (at most {EMBED_TOTAL_MAX})")
    return problems


def _check_custom_id(comp: dict[str, Any], seen: set[str], problems: list[str]) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        return
    if len(cid) > CUSTOM_ID_MAX:
        problems.append(f"custom_id {cid[:20]!r}... has {len(cid)} characters "
                        f"(at most {CUSTOM_ID_MAX})")
    if cid in seen:
        problems.append(f"custom_id {cid!r} is used twice in one message")
    seen.add(cid)


def _check_button(comp: dict[str, Any], where: str, problems: list[str]) -> None:
    label = comp.get("label")
    if label is not None and len(label) > BUTTON_LABEL_MAX:
        problems.append(f"{where}: button label has {len(label)} characters "
                        f"(at most {BUTTON_LABEL_MAX})")
    style = comp.get("style")
    if style == LINK_STYLE and not comp.get("url"):
        problems.append(f"{where}: link button without url")
    if style not in (LINK_STYLE, PREMIUM_STYLE) and not comp.get("custom_id"):
        problems.append(f"{where}: button without custom_id")


def _check_select(comp: dict[str, Any], where: str, problems: list[str]) -> None:
    if not comp.get("custom_id"):
        problems.append(f"{where}: select without custom_id")
    if _length(comp.get("placeholder")) > SELECT_PLACEHOLDER_MAX:
        problems.append(f"{where}: select placeholder longer than {SELECT_PLACEHOLDER_MAX}")
    options = comp.get("options") or []
    if comp.get("type") == 3 and not 1 <= len(options) <= SELECT_OPTIONS_MAX:
        problems.append(f"{where}: select has {len(options)} options "
                        f"(1 to {SELECT_OPTIONS_MAX})")
    for k, opt in enumerate(options):
        for key in ("label", "value", "description"):
            size = _length(opt.get(key))
            if size > SELECT_TEXT_MAX:
                problems.append(f"{where}: option {k} {key} has {size} characters "
                                f"(at most {SELECT_TEXT_MAX})")
    values = {opt.get("value") for opt in options}
    if len(values) != len(options):
        problems.append(f"{where}: select option values are not unique")
    max_values = comp.get("max_values", 1)
    if comp.get("type") == 3 and options and max_values > len(options):
        problems.append(f"{where}: max_values {max_values} exceeds {len(options)} options")


def check_components(components: list[dict[str, Any]], flags: int = 0) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    if flags & COMPONENTS_V2:
        # Layout components nest freely; only the id rules are checked for them.
        stack = list(components)
        while stack:
            comp = stack.pop()
            _check_custom_id(comp, seen, problems)
            stack.extend(comp.get("components") or [])
            if isinstance(comp.get("accessory"), dict):
                stack.append(comp["accessory"])
        return problems
    if len(components) > ACTION_ROWS_MAX:
        problems.append(f"{len(components)} action rows (at most {ACTION_ROWS_MAX})")
    for r, row in enumerate(components):
        where = f"row {r}"
        if row.get("type") != ACTION_ROW:
            problems.append(f"{where}: top-level component of type {row.get('type')} "
                            "is not an action row")
            continue
        children = row.get("components") or []
        kinds = {c.get("type") for c in children}
        if not children:
            problems.append(f"{where}: empty action row")
        elif kinds & SELECTS and len(children) != 1:
            problems.append(f"{where}: a select must be alone in its row")
        elif kinds == {BUTTON} and len(children) > BUTTONS_PER_ROW_MAX:
            problems.append(f"{where}: {len(children)} buttons (at most {BUTTONS_PER_ROW_MAX})")
        for c, comp in enumerate(children):
            _check_custom_id(comp, seen, problems)
            if comp.get("type") == BUTTON:
                _check_button(comp, f"{where} item {c}", problems)
            elif comp.get("type") in SELECTS:
                _check_select(comp, f"{where} item {c}", problems)
    return problems


def check_message(body: dict[str, Any]) -> list[str]:
    """Problems with a message body (create, edit, interaction response or followup)."""
    problems: list[str] = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_MAX:
        problems.append(f"content has {len(content)} characters (at most {CONTENT_MAX})")
    if body.get("embeds"):
        problems += check_embeds(body["embeds"])
    if body.get("components"):
        problems += check_components(body["components"], body.get("flags") or 0)
    return problems


def check_modal(data: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    title = data.get("title") or ""
    if not 1 <= len(title) <= MODAL_TITLE_MAX:
        problems.append(f"modal title has {len(title)} characters (1 to {MODAL_TITLE_MAX})")
    cid = data.get("custom_id") or ""
    if not 1 <= len(cid) <= CUSTOM_ID_MAX:
        problems.append(f"modal custom_id has {len(cid)} characters (1 to {CUSTOM_ID_MAX})")
    rows = data.get("components") or []
    if not 1 <= len(rows) <= ACTION_ROWS_MAX:
        problems.append(f"modal has {len(rows)} components (1 to {ACTION_ROWS_MAX})")
    return problems


def old_edits_spent(created: float, edits_at: list[float], now: float) -> bool:
    """Whether a message created at `created` (with earlier edits at `edits_at`) may not be
    edited at `now`: past an hour old, only OLD_MESSAGE_EDITS edits are allowed."""
    if now - created <= OLD_MESSAGE_AGE:
        return False
    late = sum(1 for at in edits_at if at - created > OLD_MESSAGE_AGE)
    return late >= OLD_MESSAGE_EDITS
