"""The ``cardbot`` command: run the bot, replay a game record, computer self-play."""
from __future__ import annotations

import argparse
import json
import logging
import sys


def _settings():
    from bot.config import ConfigError, Settings

    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"cardbot: {error}", file=sys.stderr)
        return None
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return settings


def _run(args: argparse.Namespace) -> int:
    from telegram import Update

    from bot.app import build_application

    settings = _settings()
    if settings is None:
        return 2
    build_application(settings).run_polling(allowed_updates=Update.ALL_TYPES)
    return 0


def _webhook(args: argparse.Namespace) -> int:
    """One worker behind the reverse proxy; any number may share one PostgreSQL database."""
    from telegram import Update

    from bot.app import build_application, install_update_claim
    from bot.config import ConfigError

    settings = _settings()
    if settings is None:
        return 2
    try:
        host, port, path = settings.webhook()
    except ConfigError as error:
        print(f"cardbot webhook: {error}", file=sys.stderr)
        return 2
    app = build_application(settings)
    install_update_claim(app)
    # Every worker sets the same URL and secret: harmless, and no worker is special.
    app.run_webhook(listen=host, port=port, url_path=path, webhook_url=settings.webhook_url,
                    secret_token=settings.webhook_secret, allowed_updates=Update.ALL_TYPES)
    return 0


def _read_json(path: str):
    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    return json.loads(text)


def _replay(args: argparse.Namespace) -> int:
    from engine.records import RecordError, replay

    try:
        record = _read_json(args.file)
        result = replay(record)
    except (OSError, json.JSONDecodeError) as error:
        print(f"cardbot replay: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    except RecordError as error:
        print(f"cardbot replay: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _score(args: argparse.Namespace) -> int:
    from engine.score import ScoreError, score, text

    try:
        record = _read_json(args.file)
        output = text(record, args.lang) if args.text else json.dumps(score(record), ensure_ascii=False, indent=2)
    except (OSError, json.JSONDecodeError) as error:
        print(f"cardbot score: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    except ScoreError as error:
        print(f"cardbot score: {error}", file=sys.stderr)
        return 2
    print(output)
    return 0


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cardbot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the Telegram bot (long polling)").set_defaults(func=_run)
    sub.add_parser("webhook", help="run one bot worker receiving updates by webhook "
                   "(CARDBOT_WEBHOOK_URL, CARDBOT_WEBHOOK_SECRET, CARDBOT_LISTEN)").set_defaults(func=_webhook)
    replay = sub.add_parser("replay", help="replay a JSON game record and print the final state")
    replay.add_argument("file", help="record file, or - for standard input")
    replay.set_defaults(func=_replay)
    scoring = sub.add_parser("score", help="score sheet of a game played with real cards (JSON record)")
    scoring.add_argument("file", help="record file, or - for standard input")
    scoring.add_argument("--text", action="store_true", help="print the sheet as the bot posts it")
    scoring.add_argument("--lang", choices=["ru", "en"], default="ru", help="language of --text")
    scoring.set_defaults(func=_score)
    play = sub.add_parser("selfplay", help="computer players play each other; prints games/s")
    play.add_argument("game", help="durak, king, preferans, bridge, whist")
    play.add_argument("--games", type=int, default=1000)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--players", type=int, default=4, help="clamped to what the game allows")
    play.set_defaults(func=_selfplay)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
