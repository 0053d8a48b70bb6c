"""Chunk an entry by its kind: short diaries whole, long texts by paragraph then sentence, transcripts by turn."""

from __future__ import annotations

import re

TARGET_CHARS = 1500
_SENTENCE_END = re.compile(r"(?<=[.!?…。])[\"'»”)]*\s+(?=[\"'«“¿¡(]*[A-ZÁÉÍÓÚÑÀÈÌÒÙÇ0-9])")
_TURN = re.compile(r"^\s*([A-ZÁÉÍÓÚÑ][\w .'-]{0,40}):\s", re.UNICODE)


def split_sentences(text: str) -> list[str]:
    parts = [p.strip() for p in _SENTENCE_END.split(text)]
    return [p for p in parts if p]


def _units(text: str, kind: str) -> list[str]:
    if kind == "session":
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if sum(1 for ln in lines if _TURN.match(ln)) >= 2:
            turns: list[str] = []
            for ln in lines:
                if _TURN.match(ln) or not turns:
                    turns.append(ln.strip())
                else:
                    turns[-1] += " " + ln.strip()
            return turns
    units: list[str] = []
    for para in re.split(r"\n\s*\n", text):
        para = " ".join(para.split())
        if not para:
            continue
        units.extend(split_sentences(para) if len(para) > TARGET_CHARS else [para])
    return units


def chunk_text(text: str, kind: str = "diary", target: int = TARGET_CHARS) -> list[str]:
    """Pack consecutive units up to ~`target` characters, repeating the last sentence as overlap across a cut."""
    text = text.strip()
    if len(text) <= target:
        return [text]
    units = _units(text, kind)
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for unit in units:
        if current and size + len(unit) + 1 > target:
            chunks.append(" ".join(current) if kind != "session" else "\n".join(current))
            tail = split_sentences(current[-1])[-1:] if kind != "session" else []
            current = [t for t in tail if len(t) + 1 + min(len(unit), target) <= target]
            size = sum(len(t) + 1 for t in current)
        while len(unit) > target:
            chunks.append(unit[:target])
            unit = unit[target:]
        current.append(unit)
        size += len(unit) + 1
    if current:
        chunks.append(" ".join(current) if kind != "session" else "\n".join(current))
    return chunks
