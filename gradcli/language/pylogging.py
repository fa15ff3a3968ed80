"""`import logging` as training scripts use it: `basicConfig(level=..., format=...)`,
`getLogger(__name__)`, a logger's and the module's `debug`/`info`/`warning`/`error`/
`critical`/`log` with %-style arguments formatted only when the record is shown,
`setLevel`, `isEnabledFor`, `getEffectiveLevel`, `StreamHandler` and `Formatter`.  Records
go to stderr as CPython's logging writes them: a logger without handlers anywhere up its
chain shows WARNING and above as the bare message (logging's last resort); the module's
functions first call `basicConfig()`, whose default format is
`%(levelname)s:%(name)s:%(message)s`.  CPython's `logging.Formatter` turns a record into
its line (the time of `%(asctime)s` as it writes it); the message is made by the
language's `%`.  Files and other streams are not reachable (basicConfig's `filename`,
`StreamHandler(stream)`), `{`/`$` formats are not supported, and `exception()` (and
`exc_info`/`stack_info`) is out: gradcli cannot print Python's traceback of the error.
A message its arguments cannot be formatted into is the program's error (CPython's logging
prints "--- Logging error ---" with its own traceback and goes on).  `warn` logs at
WARNING after Python's DeprecationWarning.
The loggers are a run's own: each run starts with an unconfigured root at WARNING."""

from __future__ import annotations

import re
import sys

from ..core.printing import show, show_str
from ..library.stdlib import StdModule
from ..library.values import BuiltinFunction
from ..runtime import context
from ..runtime.errors import GradAttributeError, GradError, GradTypeError, GradValueError
from ..runtime.limits import check_format_spec
from .percent import percent_format

CRITICAL, ERROR, WARNING, INFO, DEBUG, NOTSET = 50, 40, 30, 20, 10, 0
_LEVEL_TO_NAME = {
    CRITICAL: "CRITICAL",
    ERROR: "ERROR",
    WARNING: "WARNING",
    INFO: "INFO",
    DEBUG: "DEBUG",
    NOTSET: "NOTSET",
}
_NAME_TO_LEVEL = {
    "CRITICAL": CRITICAL,
    "FATAL": CRITICAL,
    "ERROR": ERROR,
    "WARN": WARNING,
    "WARNING": WARNING,
    "INFO": INFO,
    "DEBUG": DEBUG,
    "NOTSET": NOTSET,
}
BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s"
#: the fields of CPython's records this module cannot give as CPython does
_UNSUPPORTED_FIELDS = ("funcName", "exc_info", "exc_text", "stack_info", "taskName")
_FIELD = r"%\((\w*)\)[-#0 +]*(\d*)(?:\.(\d*))?"


def _level_name(level):
    """logging.getLevelName."""
    if level in _LEVEL_TO_NAME:
        return _LEVEL_TO_NAME[level]
    if isinstance(level, str) and level in _NAME_TO_LEVEL:
        return _NAME_TO_LEVEL[level]
    return f"Level {show_str(level)}"


def _check_level(level):
    if isinstance(level, int):
        return level
    if isinstance(level, str):
        if level not in _NAME_TO_LEVEL:
            raise GradValueError(f"Unknown level: {show(level)}")
        return _NAME_TO_LEVEL[level]
    raise GradTypeError(f"Level not an integer or a valid string: {show(level)}")


class Formatter:
    """logging.Formatter(fmt, datefmt): CPython's own, for `%`-style formats."""

    __slots__ = ("formatter",)

    def __init__(self, fmt=None, datefmt=None, style="%", validate=True, **kwargs):
        import logging as _logging  # (CPython's: only when a program logs)

        if style != "%":
            raise GradError(
                "logging formats of style '{' or '$' are not supported: write a '%' format",
                type_name="NotImplementedError",
            )
        for v, what in ((fmt, "fmt"), (datefmt, "datefmt")):
            if v is not None and not isinstance(v, str):
                raise GradTypeError(f"Formatter(): {what} must be a string, not {show(v)}")
        if fmt is not None:
            for m in re.finditer(_FIELD, fmt):
                if m.group(1) in _UNSUPPORTED_FIELDS:
                    raise GradError(
                        f"the log record field '{m.group(1)}' is not supported by gradcli",
                        type_name="NotImplementedError",
                    )
                check_format_spec(f"{m.group(2) or ''}.{m.group(3) or ''}")
        try:
            self.formatter = _logging.Formatter(fmt, datefmt, validate=validate)
        except ValueError as e:
            raise GradValueError(str(e)) from None

    def format_record(self, fields):
        import logging as _logging

        record = _logging.makeLogRecord(fields)
        try:
            return self.formatter.format(record)
        except (ValueError, TypeError) as e:
            raise GradError(str(e), type_name=type(e).__name__) from None

    def __repr__(self):
        return "<logging.Formatter object>"

    language_methods: dict = {}


class StreamHandler:
    """logging.StreamHandler(): a handler writing to stderr."""

    __slots__ = ("level", "formatter")

    def __init__(self, stream=None, level=NOTSET):
        if stream is not None:
            raise GradValueError(
                "StreamHandler(stream): a program reaches no streams; "
                "StreamHandler() writes to stderr"
            )
        self.level = level
        self.formatter = None

    def set_level(self, level):
        self.level = _check_level(level)

    def set_formatter(self, fmt):
        if fmt is not None and not isinstance(fmt, Formatter):
            raise GradTypeError(f"setFormatter(): a logging.Formatter, not {show(fmt)}")
        self.formatter = fmt

    def handle(self, fields):
        formatter = self.formatter or _default_formatter()
        text = formatter.format_record(fields)
        sys.stdout.flush()
        sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def __repr__(self):
        return f"<StreamHandler <stderr> ({_level_name(self.level)})>"

    language_methods = {"setLevel": set_level, "setFormatter": set_formatter}
    language_attrs = {"level": lambda h: h.level, "formatter": lambda h: h.formatter}


_DEFAULT: list = []


def _default_formatter():
    if not _DEFAULT:
        _DEFAULT.append(Formatter())
    return _DEFAULT[0]


class Logger:
    """A logger of the run (logging.getLogger(name))."""

    __slots__ = ("name", "level", "handlers", "propagate", "disabled", "loggers")

    def __init__(self, name, loggers, level=NOTSET):
        self.name = name
        self.level = level
        self.handlers: list = []
        self.propagate = True
        self.disabled = False
        self.loggers = loggers  # the run's loggers, by name

    @property
    def parent(self):
        if self is self.loggers.root:
            return None
        name = self.name
        while "." in name:
            name = name.rsplit(".", 1)[0]
            if name in self.loggers.named:
                return self.loggers.named[name]
        return self.loggers.root

    def set_level(self, level):
        self.level = _check_level(level)

    def effective_level(self):
        logger = self
        while logger is not None:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def is_enabled_for(self, level):
        if self.disabled or self.loggers.disable >= level:
            return False
        return level >= self.effective_level()

    def add_handler(self, h):
        if not isinstance(h, StreamHandler):
            raise GradTypeError(f"addHandler(): a logging handler, not {show(h)}")
        if h not in self.handlers:
            self.handlers.append(h)

    def remove_handler(self, h):
        if h in self.handlers:
            self.handlers.remove(h)

    def has_handlers(self):
        logger = self
        while logger is not None:
            if logger.handlers:
                return True
            logger = logger.parent if logger.propagate else None
        return False

    def log_at(self, level, msg, args, exc_info=None, stack_info=False, stacklevel=1, extra=None):
        if exc_info or stack_info:
            raise GradError(
                "logging's exc_info and stack_info are not supported: gradcli cannot print "
                "Python's traceback",
                type_name="NotImplementedError",
            )
        if not self.is_enabled_for(level):
            return
        self.emit(self.record(level, msg, args, extra))

    def record(self, level, msg, args, extra):
        if len(args) == 1 and isinstance(args[0], dict) and args[0]:
            args = args[0]
        message = show_str(msg)
        if args:
            message = percent_format(message, args)
        filename, line = context.current.where() if context.current.where else ("", 0)
        base = filename.replace("\\", "/").rsplit("/", 1)[-1]
        fields = {
            "name": self.name,
            "msg": msg if isinstance(msg, str) else message,
            "levelno": level,
            "levelname": _level_name(level),
            "pathname": filename,
            "filename": base,
            "module": base.rsplit(".", 1)[0] if "." in base else base,
            "lineno": line or 0,
        }
        if extra is not None:
            if not isinstance(extra, dict):
                raise GradTypeError(f"extra must be a dict, not {show(extra)}")
            for k, v in extra.items():
                if k in ("message", "asctime") or k in fields or not isinstance(k, str):
                    raise GradError(
                        f"Attempt to overwrite {show(k)} in LogRecord", type_name="KeyError"
                    )
                fields[k] = v if isinstance(v, (str, int, float)) else show_str(v)
        fields["message_text"] = message
        return fields

    def emit(self, fields):
        message = fields.pop("message_text")
        fields["msg"], fields["args"] = message, None
        found = 0
        logger = self
        while logger is not None:
            for h in logger.handlers:
                if not isinstance(h, StreamHandler):
                    raise GradAttributeError(f"{show(h)} has no attribute 'level'")
                found += 1
                if fields["levelno"] >= h.level:
                    h.handle(fields)
            logger = logger.parent if logger.propagate else None
        if not found and fields["levelno"] >= WARNING:
            _LAST_RESORT.handle(fields)  # (logging.lastResort: the bare message)

    def __repr__(self):
        kind = "RootLogger" if self is self.loggers.root else "Logger"
        return f"<{kind} {self.name} ({_level_name(self.effective_level())})>"

    def language_setattr(self, name, value):
        if name == "propagate":
            self.propagate = value
        elif name == "disabled":
            self.disabled = value
        elif name == "level":
            self.level = _check_level(value)
        elif name == "handlers" and isinstance(value, list):
            self.handlers = value
        else:
            raise GradAttributeError(f"cannot set attribute '{name}' of a Logger")


_LAST_RESORT = StreamHandler(level=WARNING)


def _at(level):
    def method(self, msg, *args, **kwargs):
        self.log_at(level, msg, args, **kwargs)

    return method


def _deprecated_warn(what):
    """Logger.warn and logging.warn: warning's, with Python's DeprecationWarning first."""
    context.current.warn(
        f"The 'warn' {what} is deprecated, use 'warning' instead", "DeprecationWarning"
    )


def _warn(self, msg, *args, **kwargs):
    _deprecated_warn("method")
    self.log_at(WARNING, msg, args, **kwargs)


def _log(self, level, msg, *args, **kwargs):
    if not isinstance(level, int):
        raise GradTypeError("level must be an integer")
    self.log_at(level, msg, args, **kwargs)


def _no_exception(self, msg="", *args, **kwargs):
    raise GradError(
        "logging's exception() is not supported: gradcli cannot print Python's traceback; "
        "log the error with error()",
        type_name="NotImplementedError",
    )


Logger.language_methods = {
    "debug": _at(DEBUG),
    "info": _at(INFO),
    "warning": _at(WARNING),
    "warn": _warn,
    "error": _at(ERROR),
    "critical": _at(CRITICAL),
    "fatal": _at(CRITICAL),
    "log": _log,
    "exception": _no_exception,
    "setLevel": Logger.set_level,
    "getEffectiveLevel": Logger.effective_level,
    "isEnabledFor": Logger.is_enabled_for,
    "addHandler": Logger.add_handler,
    "removeHandler": Logger.remove_handler,
    "hasHandlers": Logger.has_handlers,
    "getChild": lambda self, suffix: self.loggers.get(
        suffix if self is self.loggers.root else f"{self.name}.{suffix}"
    ),
}
Logger.language_attrs = {  # type: ignore[attr-defined]
    "name": lambda g: g.name,
    "level": lambda g: g.level,
    "parent": lambda g: g.parent,
    "propagate": lambda g: g.propagate,
    "disabled": lambda g: g.disabled,
    "handlers": lambda g: g.handlers,
}


class _Loggers:
    """A run's loggers: the root and those named."""

    def __init__(self):
        self.named: dict = {}
        self.disable = NOTSET
        self.root = Logger("root", self, WARNING)

    def get(self, name=None):
        if not name or name == "root":
            if name is not None and not isinstance(name, str):
                raise GradTypeError("A logger name must be a string")
            return self.root
        if not isinstance(name, str):
            raise GradTypeError("A logger name must be a string")
        if name not in self.named:
            self.named[name] = Logger(name, self)
        return self.named[name]


_BASIC_KEYS = ("force", "format", "datefmt", "style", "level", "handlers")


def make_module():
    """The module `import logging` binds, with its run's loggers."""
    loggers = _Loggers()
    root = loggers.root

    def basic_config(**kwargs):
        for k in ("filename", "filemode", "stream", "encoding", "errors"):
            if k in kwargs:
                raise GradValueError(
                    f"basicConfig({k}=...): a program reaches no files or streams; "
                    "records go to stderr"
                )
        unknown = [k for k in kwargs if k not in _BASIC_KEYS]
        if kwargs.get("force"):
            root.handlers.clear()
        if root.handlers:
            return
        handlers = kwargs.get("handlers")
        if handlers is None:
            h = StreamHandler()
            h.formatter = Formatter(
                kwargs.get("format", BASIC_FORMAT),
                kwargs.get("datefmt"),
                kwargs.get("style", "%"),
            )
            handlers = [h]
        else:
            handlers = list(handlers)
            for h in handlers:
                if not isinstance(h, StreamHandler):
                    raise GradTypeError(f"basicConfig(): a logging handler, not {show(h)}")
                if h.formatter is None:
                    h.formatter = Formatter(
                        kwargs.get("format", BASIC_FORMAT),
                        kwargs.get("datefmt"),
                        kwargs.get("style", "%"),
                    )
        for h in handlers:
            root.add_handler(h)
        if kwargs.get("level") is not None:
            root.set_level(kwargs["level"])
        if unknown:
            raise GradValueError(f"Unrecognised argument(s): {', '.join(unknown)}")

    def at(level):
        def function(msg, *args, **kwargs):
            if not root.handlers:
                basic_config()
            root.log_at(level, msg, args, **kwargs)

        return function

    def warn(msg, *args, **kwargs):
        _deprecated_warn("function")
        if not root.handlers:
            basic_config()
        root.log_at(WARNING, msg, args, **kwargs)

    def log(level, msg, *args, **kwargs):
        if not root.handlers:
            basic_config()
        _log(root, level, msg, *args, **kwargs)

    def disable(level=CRITICAL):
        loggers.disable = _check_level(level)

    def fn(name, f):
        return BuiltinFunction(f"logging.{name}", f)

    members = {k: v for k, v in _NAME_TO_LEVEL.items()}
    members.update(
        {
            "BASIC_FORMAT": BASIC_FORMAT,
            "root": root,
            "basicConfig": fn("basicConfig", basic_config),
            "getLogger": fn("getLogger", loggers.get),
            "getLevelName": fn("getLevelName", _level_name),
            "disable": fn("disable", disable),
            "log": fn("log", log),
            "debug": fn("debug", at(DEBUG)),
            "info": fn("info", at(INFO)),
            "warning": fn("warning", at(WARNING)),
            "warn": fn("warn", warn),
            "error": fn("error", at(ERROR)),
            "critical": fn("critical", at(CRITICAL)),
            "fatal": fn("fatal", at(CRITICAL)),
            "exception": fn("exception", lambda *a, **k: _no_exception(root, "")),
            "StreamHandler": fn("StreamHandler", StreamHandler),
            "Formatter": fn("Formatter", Formatter),
        }
    )
    return StdModule("logging", members)
