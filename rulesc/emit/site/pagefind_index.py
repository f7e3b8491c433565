"""Search index writer: runs the Pagefind binary (from the pagefind-bin wheel) over one HTML file per record.

Pagefind writes each filter's values in hash-map order, so two runs differ; `canonicalize` sorts them and renames
the files after their new contents, so the same records always give byte-identical files.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

SIGNATURE = b"pagefind_dcd"


class SearchIndexError(Exception):
    """Pagefind failed to index the search records."""


def run_pagefind(pages: dict[str, str], output: Path) -> None:
    """Index {file name: HTML} into `output` (replaced), deterministically."""
    with tempfile.TemporaryDirectory(prefix="rulesc-search-") as folder:
        for name, html in pages.items():
            (Path(folder) / name).write_text(html, encoding="utf-8")
        shutil.rmtree(output, ignore_errors=True)
        command = [sys.executable, "-m", "pagefind", "--site", folder, "--output-path", str(output),
                   "--force-language", "en"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SearchIndexError(f"pagefind failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    canonicalize(output)


def canonicalize(output: Path) -> None:
    renamed: dict[str, str] = {}
    for path in sorted((output / "filter").glob("*.pf_filter")):
        renamed[path.stem] = _rewrite(path, lambda data: _with_sorted_values(data))
    for path in sorted(output.glob("pagefind.*.pf_meta")):
        old = path.name.split(".")[1]
        renamed[old] = _rewrite(path, lambda data: _with_sorted_filters(_replace_all(data, renamed)), stem=old)
    entry = output / "pagefind-entry.json"
    entry.write_text(_replace_all(entry.read_bytes(), renamed).decode("utf-8"), encoding="utf-8")


def _rewrite(path: Path, change: Callable[[bytes], bytes], stem: str | None = None) -> str:
    """Rewrite one gzipped Pagefind file and rename it after its contents; returns the new hash part of the name."""
    old = stem or path.stem
    data = change(gzip.decompress(path.read_bytes()))
    language, _, digest = old.partition("_")
    new = f"{language}_{hashlib.sha256(data).hexdigest()[: len(digest)]}"
    path.unlink()
    path.with_name(path.name.replace(old, new)).write_bytes(gzip.compress(data, mtime=0))
    return new


def _replace_all(data: bytes, renamed: dict[str, str]) -> bytes:
    for old, new in renamed.items():
        data = data.replace(old.encode(), new.encode())  # same length, so CBOR stays valid
    return data


META_FILTERS, META_SORTS = 3, 4


def _with_sorted_filters(data: bytes) -> bytes:
    """The meta file lists its filters (and sorts) as [name, file] pairs in hash-map order too; sort them by name."""
    if not data.startswith(SIGNATURE):
        raise SearchIndexError("unexpected Pagefind meta file format")
    meta, end = cbor_decode(data, len(SIGNATURE))
    if end != len(data) or not isinstance(meta, list) or len(meta) <= META_SORTS:
        raise SearchIndexError("unexpected Pagefind meta file format")
    for index in (META_FILTERS, META_SORTS):
        meta[index] = sorted(meta[index], key=lambda pair: str(pair[0]))
    return SIGNATURE + cbor_encode(meta)


def _with_sorted_values(data: bytes) -> bytes:
    """A filter file is [name, [[value, [page numbers]], ...]]; sort the values."""
    if not data.startswith(SIGNATURE):
        raise SearchIndexError("unexpected Pagefind filter file format")
    value, _ = cbor_decode(data, len(SIGNATURE))
    name, values = value
    return SIGNATURE + cbor_encode([name, sorted(values, key=lambda pair: str(pair[0]))])


def cbor_decode(data: bytes, at: int) -> tuple[Any, int]:
    """The small part of CBOR Pagefind's filter files use: unsigned ints, text, arrays, maps."""
    major, info = data[at] >> 5, data[at] & 31
    at += 1
    if info < 24:
        argument = info
    elif 24 <= info <= 27:
        size = 1 << (info - 24)
        argument, at = int.from_bytes(data[at:at + size], "big"), at + size
    else:
        raise SearchIndexError(f"unsupported CBOR item {data[at - 1]:#x}")
    return _decode_item(data, at, major, argument)


def _decode_item(data: bytes, at: int, major: int, argument: int) -> tuple[Any, int]:
    if major == 0:
        return argument, at
    if major == 3:
        return data[at:at + argument].decode("utf-8"), at + argument
    if major in (4, 5):
        items = []
        for _ in range(argument * (2 if major == 5 else 1)):
            item, at = cbor_decode(data, at)
            items.append(item)
        return (items if major == 4 else dict(zip(items[::2], items[1::2], strict=True))), at  # 2n items: n pairs
    raise SearchIndexError(f"unsupported CBOR major type {major}")


def cbor_encode(value: Any) -> bytes:
    if isinstance(value, bool) or value is None:
        raise SearchIndexError("unsupported CBOR value")
    if isinstance(value, int):
        return _head(0, value)
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return _head(3, len(raw)) + raw
    if isinstance(value, dict):
        return _head(5, len(value)) + b"".join(cbor_encode(k) + cbor_encode(v) for k, v in value.items())
    return _head(4, len(value)) + b"".join(cbor_encode(item) for item in value)


def _head(major: int, argument: int) -> bytes:
    if argument < 24:
        return bytes([major << 5 | argument])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if argument < 1 << (8 * size):
            return bytes([major << 5 | info]) + argument.to_bytes(size, "big")
    raise SearchIndexError("CBOR integer too large")


__all__ = ["SearchIndexError", "canonicalize", "run_pagefind"]
