# „Im Code nachrechnen“: runs a reader's script inside the tab's Python Web Worker
# (static/js/runtime/python-worker.js), never in the page's own runtime, so an endless loop can be ended by
# ending the worker. Defines run(code, style_json) -> JSON {output, figures, error}.
import base64
import contextlib
import io
import json
import os

os.environ["MPLBACKEND"] = "agg"  # Pyodide's default backend draws into the page, which a worker has not
import matplotlib

matplotlib.use("agg")
import matplotlib.pyplot as plt
from cycler import cycler

# The scripts end with plt.show() as they would on a desktop; here the figures are sent as images.
plt.show = lambda *args, **kwargs: None

FILE = "<dein Code>"  # tracebacks name the reader's code by this, so its lines can be told from ours


def _style(style):
    """The page's look (static/js/workshop/workshop.js reads it from the site's CSS): colours, and DejaVu Sans,
    which ships inside matplotlib, so nothing is fetched."""
    matplotlib.rcdefaults()
    ink, muted, background = style["ink"], style["muted"], style["background"]
    # Shown at its own size (100 dpi): 12 pt is about 17 px, as large as the page's text around the
    # figure; matplotlib's 10 pt would make tick labels smaller than the page's smallest print.
    matplotlib.rcParams.update({
        "font.family": "DejaVu Sans",
        "font.size": 13,
        "xtick.labelsize": 12, "ytick.labelsize": 12, "legend.fontsize": 12,
        "axes.prop_cycle": cycler(color=style["palette"]),
        "text.color": ink, "axes.labelcolor": ink, "axes.titlecolor": ink,
        "xtick.color": muted, "ytick.color": muted, "axes.edgecolor": muted,
        "figure.facecolor": background, "axes.facecolor": background, "savefig.facecolor": background,
        "legend.facecolor": background, "legend.edgecolor": muted,
        "axes.spines.top": False, "axes.spines.right": False,
        "figure.dpi": 100,
    })


def _line(error):
    """The line of the reader's code where ``error`` happened (the deepest frame in their code)."""
    if isinstance(error, SyntaxError) and error.filename == FILE:
        return error.lineno
    line, frame = None, error.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_filename == FILE:
            line = frame.tb_lineno
        frame = frame.tb_next
    return line


def _png(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode()


def run(code, style_json):
    """No message function of the worker's comes in (unlike engine_run.py's run): the reader's code could
    reach it through Python's frames and post to the page."""
    _style(json.loads(style_json))
    plt.close("all")
    printed, error = io.StringIO(), None
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            exec(compile(code, FILE, "exec"), {"__name__": "__main__"})
    except SystemExit as stop:  # exit() ends the script; only a message or a number is an error
        if stop.code not in (None, 0):
            error = {"line": None, "kind": "SystemExit", "message": str(stop.code)}
    except BaseException as failure:
        message = failure.msg if isinstance(failure, SyntaxError) else str(failure)
        error = {"line": _line(failure), "kind": type(failure).__name__, "message": message}
    figures = []
    for number in plt.get_fignums():
        try:
            figures.append(_png(plt.figure(number)))
        except Exception as failure:
            error = error or {"line": None, "kind": type(failure).__name__, "message": str(failure)}
    plt.close("all")
    return json.dumps({"output": printed.getvalue(), "figures": figures, "error": error}, ensure_ascii=False)
