"""A small PEP 517 / PEP 660 build backend for hwfit-client, standard library only.

Why not setuptools: a build with setuptools needs either the package index (pip's
isolated build environment downloads it) or, with ``--no-build-isolation``, a
setuptools >= 70.1 or setuptools plus ``wheel`` already installed; a fresh venv
has neither (Python 3.11's venv ships setuptools 65 without ``wheel``, 3.12+ no
setuptools at all). This backend has no build requirements, so
``pip install ./clients/python`` works offline, isolated or not.

It builds a pure-Python ``py3-none-any`` wheel of the ``hwfit_client`` package,
an sdist, and an editable wheel (a ``.pth`` file). The metadata comes from the
``[project]`` table of ``pyproject.toml``.
"""

import ast
import base64
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "hwfit_client"

__all__ = [
    "get_requires_for_build_wheel",
    "get_requires_for_build_sdist",
    "get_requires_for_build_editable",
    "prepare_metadata_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "build_wheel",
    "build_sdist",
    "build_editable",
]


# --------------------------------------------------------------------------- metadata


def _parse_project_table(text: str) -> Dict[str, Any]:
    """The ``[project]`` table of a pyproject.toml, with its sub-tables
    (``[project.optional-dependencies]``) as nested dicts.

    ``tomllib`` where it exists (3.11+); before that, a reader for the subset
    this file uses: ``key = "string"`` and ``key = [ "strings", ... ]`` (one or
    several lines), which are Python literals too.
    """
    try:
        import tomllib  # type: ignore[import-not-found]
    except ImportError:
        return _parse_project_subset(text)
    return dict(tomllib.loads(text)["project"])


def _parse_project_subset(text: str) -> Dict[str, Any]:
    project: Dict[str, Any] = {}
    table: Optional[Dict[str, Any]] = None  # the table the lines go to; None outside [project]
    pending: Optional[Tuple[str, str]] = None
    for line in text.splitlines():
        stripped = line.strip()
        if pending is not None:
            key, value = pending
            value += " " + stripped
            if value.count("[") == value.count("]"):
                assert table is not None
                table[key] = ast.literal_eval(value)
                pending = None
            else:
                pending = (key, value)
            continue
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            header = stripped.split("#", 1)[0].strip()
            if header == "[project]":
                table = project
            elif header.startswith("[project.") and header.endswith("]") and not header.startswith("[["):
                table = project.setdefault(header[len("[project.") : -1].strip(), {})
            else:
                table = None
            continue
        if table is None:
            continue
        key, sep, value = stripped.partition("=")
        if not sep:
            raise ValueError(f"pyproject.toml: cannot read line {line!r}")
        key, value = key.strip(), value.strip()
        if value.startswith("[") and value.count("[") != value.count("]"):
            pending = (key, value)
        else:
            table[key] = ast.literal_eval(value)
    if pending is not None:
        raise ValueError(f"pyproject.toml: unterminated array for {pending[0]!r}")
    return project


def project() -> Dict[str, Any]:
    """The ``[project]`` table, checked for what this backend needs."""
    table = _parse_project_table((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for key in ("name", "version", "description", "requires-python"):
        if not isinstance(table.get(key), str):
            raise ValueError(f"pyproject.toml: [project] needs a string {key!r}")
    if table.get("dependencies"):
        raise ValueError("pyproject.toml: hwfit-client has no runtime dependencies")
    extras = table.get("optional-dependencies", {})
    if not isinstance(extras, dict) or not all(
        isinstance(name, str) and isinstance(reqs, list) and all(isinstance(r, str) for r in reqs)
        for name, reqs in extras.items()
    ):
        raise ValueError("pyproject.toml: [project.optional-dependencies] maps names to lists of strings")
    return table


def _requires_dist(table: Dict[str, Any]) -> List[str]:
    """``Requires-Dist`` lines of the optional dependencies, each marked with its extra."""
    lines = []
    for extra, requirements in table.get("optional-dependencies", {}).items():
        name = re.sub(r"[-_.]+", "-", extra).lower()  # PEP 685 normalised extra name
        lines.append(f"Provides-Extra: {name}")
        for requirement in requirements:
            requirement, _, marker = requirement.partition(";")
            condition = f'({marker.strip()}) and extra == "{name}"' if marker.strip() else f'extra == "{name}"'
            lines.append(f"Requires-Dist: {requirement.strip()}; {condition}")
    return lines


def _dist_name(table: Dict[str, Any]) -> str:
    return re.sub(r"[-_.]+", "_", table["name"]).lower()


def _metadata(table: Dict[str, Any]) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {table['name']}",
        f"Version: {table['version']}",
        f"Summary: {table['description']}",
        f"Requires-Python: {table['requires-python']}",
    ]
    if isinstance(table.get("license"), str):
        lines.append(f"License: {table['license']}")
    if table.get("keywords"):
        lines.append("Keywords: " + ",".join(table["keywords"]))
    lines.extend(f"Classifier: {c}" for c in table.get("classifiers", []))
    lines.extend(_requires_dist(table))
    readme = table.get("readme")
    body = ""
    if isinstance(readme, str):
        lines.append("Description-Content-Type: text/markdown")
        body = (ROOT / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + body


def _wheel_file(tag: str = "py3-none-any") -> str:
    return f"Wheel-Version: 1.0\nGenerator: hwfit_build\nRoot-Is-Purelib: true\nTag: {tag}\n"


def _dist_info_files(table: Dict[str, Any]) -> Dict[str, bytes]:
    return {
        "METADATA": _metadata(table).encode("utf-8"),
        "WHEEL": _wheel_file().encode("utf-8"),
    }


def _write_dist_info(directory: str, table: Dict[str, Any]) -> str:
    name = f"{_dist_name(table)}-{table['version']}.dist-info"
    target = Path(directory) / name
    target.mkdir(parents=True, exist_ok=True)
    for file, data in _dist_info_files(table).items():
        (target / file).write_bytes(data)
    return name


# --------------------------------------------------------------------------- archives


def _timestamp() -> Tuple[int, int, int, int, int, int]:
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01, zip's earliest
    return time.gmtime(max(epoch, 315532800))[:6]


def _package_files() -> List[Path]:
    files = []
    for path in sorted((ROOT / PACKAGE).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo"):
            files.append(path)
    return files


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


def _build_wheel(wheel_directory: str, entries: Dict[str, bytes], table: Dict[str, Any]) -> str:
    dist = _dist_name(table)
    dist_info = f"{dist}-{table['version']}.dist-info"
    for file, data in _dist_info_files(table).items():
        entries[f"{dist_info}/{file}"] = data
    record_path = f"{dist_info}/RECORD"
    record = io.StringIO()
    for arcname, data in entries.items():
        record.write(f"{arcname},{_record_hash(data)},{len(data)}\n")
    record.write(f"{record_path},,\n")
    entries[record_path] = record.getvalue().encode("utf-8")

    filename = f"{dist}-{table['version']}-py3-none-any.whl"
    Path(wheel_directory).mkdir(parents=True, exist_ok=True)
    stamp = _timestamp()
    with zipfile.ZipFile(Path(wheel_directory) / filename, "w", zipfile.ZIP_DEFLATED) as zf:
        for arcname, data in entries.items():
            info = zipfile.ZipInfo(arcname, date_time=stamp)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return filename


# --------------------------------------------------------------------------- PEP 517 hooks


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    return _write_dist_info(metadata_directory, project())


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: Optional[Dict[str, Any]] = None
) -> str:
    return _write_dist_info(metadata_directory, project())


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[Dict[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    entries = {path.relative_to(ROOT).as_posix(): path.read_bytes() for path in _package_files()}
    return _build_wheel(wheel_directory, entries, project())


def build_editable(
    wheel_directory: str,
    config_settings: Optional[Dict[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    table = project()
    entries = {f"_{_dist_name(table)}_editable.pth": (str(ROOT) + "\n").encode("utf-8")}
    return _build_wheel(wheel_directory, entries, table)


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    table = project()
    base = f"{_dist_name(table)}-{table['version']}"
    files = [ROOT / "pyproject.toml", ROOT / "README.md", Path(__file__).resolve()]
    files += _package_files()
    files += sorted(p for p in (ROOT / "tests").glob("*.py"))
    Path(sdist_directory).mkdir(parents=True, exist_ok=True)
    mtime = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))

    def add(tar: tarfile.TarFile, arcname: str, data: bytes) -> None:
        info = tarfile.TarInfo(f"{base}/{arcname}")
        info.size, info.mtime, info.mode = len(data), mtime, 0o644
        tar.addfile(info, io.BytesIO(data))

    filename = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / filename, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path in files:
            add(tar, path.relative_to(ROOT).as_posix(), path.read_bytes())
        add(tar, "PKG-INFO", _metadata(table).encode("utf-8"))
    return filename
