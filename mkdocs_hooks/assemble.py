"""MkDocs hook: assembles what lives outside pages/ into the site.

MkDocs only copies files from docs_dir; the project keeps pages/, static/ and py/ apart, so that a page's
Markdown, the browser's code and the Python package each have their own folder. This hook adds static/
file by file, the trained models, the start page (index.html) with its concept groups and learning paths,
and zips py/probierlabor for the browser, named by its content hash so a new version never meets a stale
cache. The zip also carries the engine and recorder modules the package imports (ENGINE_FOR_BROWSER,
RECORDER_FOR_BROWSER), once for the page and the Python worker, and the bytecode of everything in it
(mkdocs_hooks/bytecode.py).
"""

from __future__ import annotations

import hashlib
import importlib.util
import tempfile
import zipfile
from pathlib import Path

import jinja2
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from probierlabor.realmodel import models

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "py" / "probierlabor"
ENGINE = ROOT / "engine"
RECORDER = ROOT / "recorder"
STATIC = ROOT / "static"
# The engine modules the package imports (tests/hooks/test_browser_zip.py checks the list against its imports):
# a concept's plain-Python math (acceptance.py), the tokenizer „Eigener Lauf“'s form reads prompts by, the
# byte-level BPE the page „Tokenisierung“ runs (bpe.py, plain Python too), and
# what probierlabor/live and probierlabor/realmodel (with the byte-level tokenizer) run on numpy in the
# Python worker, only when a reader starts a run or opens „Am echten Modell“. The page
# imports nothing of it but those three plain modules, so its cold start pays only for the download
# (bytecode, about a tenth of the zip); engine/__init__.py must stay free of imports.
ENGINE_FOR_BROWSER = ("__init__.py", "acceptance.py", "attention.py", "block_pool.py", "bpe.py", "engine.py", "model.py",
                      "paged_kv.py", "pretrained.py", "sampler.py", "scheduler.py", "speculative.py", "tokenizer.py")
# A reader's own run („Eigener Lauf“) is recorded in the worker as the committed runs are: the recorder's
# trace writer, workloads, tile recorder and the article's toy pair, on the engine above.
RECORDER_FOR_BROWSER = ("__init__.py", "tile_trace.py", "toy.py", "tracer.py", "workloads.py")

# A hook is loaded by path, not as part of a package: its neighbour is loaded the same way.
_spec = importlib.util.spec_from_file_location("probierlabor_bytecode", Path(__file__).with_name("bytecode.py"))
bytecode = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bytecode)


def _package_files() -> list[Path]:
    # pageblocks/ writes the HTML around the experiments at build time; the browser never imports it.
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if "__pycache__" not in p.parts and p.relative_to(PACKAGE).parts[0] != "pageblocks")


# Data the page's Python reads at import (kit/site_tokenizer.py), under its path in the repository: the
# trained tokenizer's merges, 12 KB, which the page „Tokenisierung“ runs on; the weights stay outside the
# zip (on_files).
DATA_FOR_BROWSER = ("model/weights/tokenizer.json",)


def bundle_files() -> list[tuple[Path, str]]:
    """(file, name in the zip) of everything the browser's Python imports or reads."""
    files = [(p, "probierlabor/" + p.relative_to(PACKAGE).as_posix()) for p in _package_files()]
    files += [(RECORDER / name, f"recorder/{name}") for name in RECORDER_FOR_BROWSER]
    files += [(ENGINE / name, f"engine/{name}") for name in ENGINE_FOR_BROWSER]
    return files + [(ROOT / name, name) for name in DATA_FOR_BROWSER]


def _package_hash() -> str:
    digest = hashlib.sha256()
    for path, name in bundle_files():
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def on_config(config):
    if not (STATIC / "vendor" / "MANIFEST.json").exists():
        raise PluginError("static/vendor fehlt: erst `make site` (oder tools/vendor_runtime.py) ausführen.")
    config.extra["py_bundle"] = f"static/py/probierlabor-{_package_hash()}.zip"
    return config


def on_files(files, config):
    shipped = [path.relative_to(ROOT).as_posix() for path in sorted(STATIC.rglob("*")) if path.is_file()]
    for rel in shipped:
        if "/." not in "/" + rel:
            files.append(File(rel, src_dir=str(ROOT), dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    # the trained models (model/weights/), fetched by the Python worker when a reader opens „Am echten Modell“
    # or starts „Eigener Lauf“, under the site's paths (realmodel/models.py)
    for rel, source in models.SOURCES.items():
        files.append(File.generated(config, rel, abs_src_path=str(source)))
    return files


def on_env(env, config, files):
    # The start page's template is the top-level index.html, where one looks for a site's first page; the
    # theme's loader searches only overrides/ and the theme, so a loader of its own adds that one file.
    start = jinja2.FunctionLoader(lambda name: (ROOT / "index.html").read_text(encoding="utf-8")
                                  if name == "start.html" else None)
    env.loader = jinja2.ChoiceLoader([env.loader, start])
    # The start page lists them, and every page carries them for static/js/classroom/paths.js (a page reached from
    # a path shows its step and the path's neighbours).
    env.globals["learning_paths"] = learning_paths()
    return env


def learning_paths() -> list[dict]:
    """concepts/graph.py's PATHS with each step's title."""
    from probierlabor.concepts.graph import PATHS
    from probierlabor.kit import api

    return [{"title": title, "description": description,
             "steps": [{"slug": slug, "title": api.concept(slug).TITLE} for slug in slugs]}
            for title, description, slugs in PATHS]


def on_page_context(context, page, config, nav):
    if page.is_homepage:
        from probierlabor import GROUPS, SLUGS
        from probierlabor.kit import api

        modules = [api.concept(slug) for slug in SLUGS]
        context["concept_groups"] = [
            (group, [{"slug": m.SLUG, "title": m.TITLE, "teaser": m.TEASER} for m in modules if group == m.GROUP])
            for group in GROUPS
        ]
    return context


def on_post_build(config):
    # The theme's source maps are only read by developer tools; a USB stick need not carry them.
    for source_map in Path(config["site_dir"], "assets").rglob("*.map"):
        source_map.unlink()
    # The theme ships the search's word stemmers and splitters for 30 languages (1 MB); the search reads
    # only those of its own languages (mkdocs.yml, plugins: search: lang), the support file and the one
    # that combines several. The site stays under its 42 MB.
    search = config["plugins"]["material/search"].config
    needed = {f"lunr.{lang}.min.js" for lang in search["lang"]} | {"lunr.stemmer.support.min.js", "lunr.multi.min.js"}
    for script in Path(config["site_dir"], "assets", "javascripts", "lunr").rglob("*.js"):
        if script.name not in needed:
            script.unlink()
    target = Path(config["site_dir"]) / config.extra["py_bundle"]
    target.parent.mkdir(parents=True, exist_ok=True)
    for old in target.parent.glob("probierlabor-*.zip"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        sources = Path(tmp) / "sources.zip"
        with zipfile.ZipFile(sources, "w", zipfile.ZIP_DEFLATED) as bundle:
            for path, name in bundle_files():
                bundle.write(path, name)
        bytecode.compile_bundle(sources, target)


def on_serve(server, config, builder):
    for path in (PACKAGE, *(ENGINE / name for name in ENGINE_FOR_BROWSER), STATIC / "js", STATIC / "css",
                 STATIC / "py", ROOT / "index.html"):
        server.watch(str(path))
    return server
