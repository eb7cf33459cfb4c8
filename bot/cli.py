"""The ``cardbot`` command: run the bot, replay or analyse a game record, computer self-play."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys


def _settings():
    from bot.config import ConfigError, Settings

    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"cardbot: {error}", file=sys.stderr)
        return None
    from bot.redact import install, url_secrets

    install(settings.log_level, (settings.token, settings.webhook_secret or "", *url_secrets(settings.database_url)))
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return settings


def _serve(command: str, start) -> int:
    """Run the bot; a failure to start (a bad database URL, say) is logged through the
    redacting formatter, never printed raw with the URL in it. A token Telegram refuses
    is one line and exit status 2, like any other bad setting; a database the bot cannot
    use (read-only, say) is one line and exit status 1."""
    from telegram.error import InvalidToken

    from storage.repository import StorageError

    try:
        start()
    except InvalidToken as error:
        logging.getLogger("cardbot").critical(
            "cardbot %s: Telegram refused the bot token (TELEGRAM_BOT_TOKEN): %s", command, error
        )
        return 2
    except StorageError as error:  # the database cannot be used (read-only, say): what to fix, in one line
        logging.getLogger("cardbot").critical("cardbot %s stopped: %s", command, error)
        return 1
    except Exception as error:
        logging.getLogger("cardbot").critical("cardbot %s stopped: %s", command, error, exc_info=True)
        return 1
    return 0


def _run(args: argparse.Namespace) -> int:
    from bot.app import build_application
    from bot.polling import run

    settings = _settings()
    if settings is None:
        return 2
    return _serve("run", lambda: run(build_application(settings)))


def _webhook(args: argparse.Namespace) -> int:
    """One worker behind the reverse proxy; any number may share one PostgreSQL database."""
    from telegram import Update

    from bot.app import build_application, install_update_claim
    from bot.config import ConfigError
    from bot.polling import connect, set_webhook, stoppable_loop

    settings = _settings()
    if settings is None:
        return 2
    try:
        host, port, path = settings.webhook()
    except ConfigError as error:
        print(f"cardbot webhook: {error}", file=sys.stderr)
        return 2

    def start() -> None:
        app = build_application(settings)
        install_update_claim(app)
        # Telegram unreachable: one line a try until it answers (run_webhook then uses
        # this loop, the application already initialised); a stop meanwhile ends here.
        loop = stoppable_loop()
        try:
            loop.run_until_complete(connect(app))
            loop.run_until_complete(set_webhook(app, settings.webhook_url, settings.webhook_secret))
        except (KeyboardInterrupt, SystemExit):
            loop.run_until_complete(app.shutdown())
            loop.close()
            return
        # Every worker sets the same URL and secret: harmless, and no worker is special.
        # run_webhook sets it once more (it cannot start without a URL: it would delete the
        # webhook); Telegram has just answered, and PTB retries that call quietly if not.
        app.run_webhook(
            listen=host,
            port=port,
            url_path=path,
            webhook_url=settings.webhook_url,
            secret_token=settings.webhook_secret,
            allowed_updates=Update.ALL_TYPES,
            bootstrap_retries=-1,
        )

    return _serve("webhook", start)


def _demo(args: argparse.Namespace) -> int:
    """The bot against the built-in Telegram emulator, played from a web page: no token."""
    import os
    import tempfile

    from bot.config import ConfigError, Settings
    from bot.emulator.demo import parse_listen, serve

    try:
        listen = parse_listen(args.listen, args.allow_remote)
        env = {"CARDBOT_COMPUTER_LEVEL": "normal", **os.environ, "TELEGRAM_BOT_TOKEN": "0:DEMO"}
        settings = Settings.from_env(env, dotenv=None)
    except (ValueError, ConfigError) as error:
        print(f"cardbot demo: {error}", file=sys.stderr)
        return 2
    from bot.redact import install

    install(settings.log_level, ())
    logging.getLogger("httpx").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="cardbot-demo-") as scratch:
        db_path = args.db or os.path.join(scratch, "demo.sqlite3")
        from dataclasses import replace

        try:
            serve(replace(settings, db_path=db_path), listen, args.lang, on_ready=lambda line: print(line, flush=True))
        except OSError as error:
            print(f"cardbot demo: cannot listen on {args.listen}: {error.strerror or error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:  # Ctrl+C before the bot was up (afterwards PTB stops it cleanly)
            return 130
    return 0


MAX_LINE = 200  # a refusal is one short line, whatever the input held
# What a malformed record makes the readers raise: refused like any bad record.
MALFORMED = (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError)


def _refuse(command: str, message: object) -> int:
    """One line on stderr, at most MAX_LINE characters, and exit status 2."""
    line = " ".join(f"cardbot {command}: {message}".split())
    print(line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…", file=sys.stderr)
    return 2


def _read_json(path: str):
    """The record as JSON; RecordTooLarge over MAX_RECORD_BYTES (read no further); OSError,
    UnicodeError or ValueError (json's, or a number over Python's digit limit) for a file
    that is not one; RecursionError for deep nesting."""
    from engine.records import read_record_file

    return json.loads(read_record_file(path).decode("utf-8"))


def _load(command: str, path: str):
    from engine.records import RecordTooLarge

    try:
        return _read_json(path), None
    except RecordTooLarge as error:
        return None, _refuse(command, error)
    except OSError as error:
        return None, _refuse(command, f"cannot read {path}: {error.strerror or error}")
    except UnicodeError:
        return None, _refuse(command, f"cannot read {path}: not UTF-8 text")
    except RecursionError:
        return None, _refuse(command, f"cannot read {path}: JSON nested too deeply")
    except ValueError as error:
        return None, _refuse(command, f"cannot read {path}: not JSON ({error})")


def _replay(args: argparse.Namespace) -> int:
    from engine.records import RecordError, replay

    record, failed = _load("replay", args.file)
    if failed:
        return failed
    try:
        result = replay(record)
    except RecordError as error:
        return _refuse("replay", error)
    except MALFORMED as error:
        return _refuse("replay", f"not a valid game record ({type(error).__name__})")
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _analyse(args: argparse.Namespace) -> int:
    from bot.analyse_cli import analyse
    from engine.records import RecordError

    record, failed = _load("analyse", args.file)
    if failed:
        return failed
    try:
        print(analyse(record, args.json))
    except RecordError as error:
        return _refuse("analyse", error)
    except MALFORMED as error:
        return _refuse("analyse", f"not a valid game record ({type(error).__name__})")
    return 0


def _score(args: argparse.Namespace) -> int:
    from engine.score import ScoreError, score, text

    record, failed = _load("score", args.file)
    if failed:
        return failed
    try:
        output = text(record, args.lang) if args.text else json.dumps(score(record), ensure_ascii=False, indent=2)
    except ScoreError as error:
        return _refuse("score", error)
    except MALFORMED as error:
        return _refuse("score", f"not a valid score record ({type(error).__name__})")
    print(output)
    return 0


class _Parser(argparse.ArgumentParser):
    """Bad options: one line naming the problem (``--help`` shows the usage)."""

    def error(self, message: str):
        self.exit(2, " ".join(f"{self.prog}: {message} (see {self.prog.split()[0]} --help)".split())[:MAX_LINE] + "\n")


def _selfplay(args: argparse.Namespace) -> int:
    from engine.selfplay import selfplay

    from engine.base import get_game

    try:
        game = get_game(args.game)
    except KeyError as error:
        print(f"cardbot selfplay: {error.args[0]}", file=sys.stderr)
        return 2
    low, high = game.seat_range(game.Options())
    players = min(max(args.players, low), high)
    stats = selfplay(args.game, games=args.games, seed=args.seed, players=players)
    summary = {k: v for k, v in stats.items() if k != "results"}
    print(json.dumps(summary, ensure_ascii=False))
    print(f"{stats['games']} games in {stats['seconds']:.2f} s: {stats['games_per_second']:.0f} games/s")
    return 0


def _playable_games() -> list[str]:
    """The games with a table of their own, as the bot's registry lists them."""
    from bot.game_registry import playable

    return [ui.name for ui in playable()]


def main(argv: list[str] | None = None) -> int:
    from engine.records import MAX_RECORD_TEXT

    record_help = f"record file (JSON, at most {MAX_RECORD_TEXT}), or - for standard input"
    parser = _Parser(prog="cardbot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the Telegram bot (long polling)").set_defaults(func=_run)
    sub.add_parser(
        "webhook",
        help="run one bot worker receiving updates by webhook "
        "(CARDBOT_WEBHOOK_URL, CARDBOT_WEBHOOK_SECRET, CARDBOT_LISTEN)",
    ).set_defaults(func=_webhook)
    demo = sub.add_parser(
        "demo", help="try the bot in a browser: a built-in Telegram emulator and a web page, no token needed"
    )
    demo.add_argument("--listen", default="127.0.0.1:8080", help="address of the page (default 127.0.0.1:8080)")
    demo.add_argument(
        "--allow-remote", action="store_true", help="allow a non-loopback --listen (anyone reaching it plays)"
    )
    demo.add_argument("--lang", choices=["en", "ru"], default="en", help="the people's Telegram language")
    demo.add_argument("--db", help="keep the tables in this SQLite file (default: a temporary one)")
    demo.set_defaults(func=_demo)
    replay = sub.add_parser("replay", help="replay a JSON game record and print the final state")
    replay.add_argument("file", help=record_help)
    replay.set_defaults(func=_replay)
    analysis = sub.add_parser("analyse", help="every deal of a game record with its double-dummy analysis")
    analysis.add_argument("file", help=record_help)
    analysis.add_argument("--json", action="store_true", help="print JSON, one object per deal")
    analysis.set_defaults(func=_analyse)
    scoring = sub.add_parser("score", help="score sheet of a game played with real cards (JSON record)")
    scoring.add_argument("file", help=record_help)
    scoring.add_argument("--text", action="store_true", help="print the sheet as the bot posts it")
    scoring.add_argument("--lang", choices=["ru", "en"], default="ru", help="language of --text")
    scoring.set_defaults(func=_score)
    play = sub.add_parser("selfplay", help="computer players play each other; prints games/s")
    play.add_argument("game", help=", ".join(_playable_games()))
    play.add_argument("--games", type=int, default=1000)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--players", type=int, default=4, help="clamped to what the game allows")
    play.set_defaults(func=_selfplay)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        # Ctrl+C before a command's own handling is up (its imports, a long selfplay): one
        # line, the shell's status for an interrupt, never a traceback
        print(f"cardbot {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`cardbot score game.json | head`): stop quietly, as `cat`
        # does; stdout goes to /dev/null so the interpreter's last flush fails no more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
