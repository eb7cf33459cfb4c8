"""The emulator served over HTTP now ships in the package (bot/emulator/http_api.py), where
``cardbot demo`` uses it too. This module keeps the old import path and names."""

from bot.emulator.http_api import HttpBotApi, _QueueingApp  # noqa: F401 (re-exported)


def raw_request(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, bytes, dict[str, str]]:
    """One HTTP request to 127.0.0.1:``port`` with exactly these headers (no Host unless
    given: the tests forge it) -> (status, body, headers)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    try:
        connection.send(body)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and closed before taking it all: the answer is read below
    response = connection.getresponse()
    answer = response.status, response.read(), dict(response.getheaders())
    connection.close()
    return answer
