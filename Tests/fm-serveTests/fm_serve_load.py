"""fm serve under load, as many Python clients at once reach it: the
official `openai` client, streaming, against a real `fm serve` started by
FMServeLoadTests.swift with `--parallel 4 --max-queue 8` (4 answers decoded
at once, 8 more waiting, beyond them 429).

What it checks, and why:

- Waves of 32 concurrent streaming clients (500 requests in all, none
  retried): every request ends either in a complete answer (a finish_reason,
  then the end of the stream) or in an HTTP 429 with `Retry-After`, so a
  client can always tell "busy, come back" from an answer, and none hangs
  (each request has the client's timeout, each wave and the whole run a
  deadline). Each wave both answers and turns away: the bound holds.
- Memory: the server's resident size (VmRSS of SERVER_PID) after the 500
  requests is within 64 MiB of what it was after the first 50, so nothing a
  request leaves behind (sessions, sequences, cache entries, connections)
  accumulates.
- Disconnects: 16 clients ask for long answers (600 tokens), read a few
  pieces and close the stream. Their sequences must be freed at once: the
  next request's first token arrives within a few seconds (the long answers
  would take tens of seconds; on a machine busy with other work, within 20
  decoding steps as timed while the clients read), and a batch of 4
  concurrent requests (all the sequences) is then answered to the end.

With `passes WRK LUA_SCRIPT` after those arguments, against a server with
`--parallel 2 --max-queue 4` (FMServeLoadTests' second test), instead: the
load and bad-input suites twice over, each pass

- 10 waves of 64 concurrent streaming openai clients (8-token answers):
  every request a complete answer or a 429 with Retry-After, so no
  connection error and no 5xx, none hanging, each wave answering and
  turning away;
- wrk (fm_serve_wrk.lua) with 64 connections for 10 s, each POSTing a
  streamed request again once its answer ended (after a 429, once its
  Retry-After passed): wrk's summary shows no socket error (connect, read,
  write, timeout), every non-2xx is a 429 with Retry-After, every 200 a
  complete event stream;
- bad inputs: malformed, refused and oversized requests, each its 4xx in
  OpenAI's error shape, requests that stop halfway, streams left after
  their first piece;

after each, nothing left waiting or generating once the clients that left
(wrk's last, the bad inputs') are let go; and the server's resident memory
(VmRSS) then, after the second pass, within 32 MiB of after the first
(whose requests warmed the caches).

Usage: python fm_serve_load.py BASE_URL API_KEY MODEL_NAME SERVER_PID [passes WRK LUA_SCRIPT]

Prints `ok: NAME` for each check that passed and `FAILED: NAME: why` for
each that did not, `info: ...` lines with the figures (answers, 429s, resident
sizes in MiB, seconds); exits 1 if any check failed.
"""
import sys
import threading
import time

import httpx
import openai

from fm_serve_checks import check, finish, info

base_url, api_key, model_name, server_pid = sys.argv[1:5]
server_pid = int(server_pid)

PARALLEL, MAX_QUEUE = 4, 8  # the server's flags
WAVE = 32                   # concurrent clients in a wave
TOTAL = 500                 # requests in the memory run
BASELINE = 50               # requests before the first measurement
MEMORY_GROWTH_MIB = 64
# Deadlines far above what two free cores need (a wave takes about 2 s),
# so that only a server that stops answering trips them, not a slow machine.
REQUEST_TIMEOUT = 120       # seconds the client waits for a byte: longer is a hang
WAVE_DEADLINE = 300         # seconds a whole wave may take
LOAD_DEADLINE = 1200        # seconds all the waves may take (about 30 on two free cores)
LEAVERS = 16
FIRST_TOKEN_LIMIT = 5       # seconds, after the leavers closed their streams...
FIRST_TOKEN_STEPS = 20      # ...or this many decoding steps, where the machine is slower

client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=REQUEST_TIMEOUT)
started = time.time()


def resident_mib():
    """The server's resident memory (VmRSS), in MiB; None if it is gone."""
    try:
        with open(f"/proc/{server_pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def describe(error):
    """An exception in a few words, saying what kind of failure it is."""
    text = str(error).replace("\n", " ")[:160]
    if isinstance(error, openai.APIStatusError):
        return f"HTTP {error.status_code} {type(error).__name__}: {text}"
    if type(error) is openai.APIError:
        # The client raises a plain APIError for an error event inside a 200 stream.
        return f"{type(error).__name__} inside a 200 stream: {text}"
    if error.__cause__ is not None:
        # APIConnectionError says only "Connection error."; httpx's error under
        # it says which: refused, reset, or closed before the response.
        cause = str(error.__cause__).replace("\n", " ")[:120]
        return f"{type(error).__name__}: {text} ({type(error.__cause__).__name__}: {cause})"
    return f"{type(error).__name__}: {text}"


PROMPTS = [
    "Name a color.", "Say hi.", "What is two plus two?", "Name a fruit.",
    "Give one word for happy.", "Name a planet.", "What day comes after Monday?", "Name an animal.",
]


def summary(failed):
    """(request, why) pairs in a line: each distinct why, how often, where."""
    by_why = {}
    for index, why in failed:
        by_why.setdefault(why, []).append(index)
    return "; ".join(f"{len(indices)} x {why} (requests {', '.join(map(str, indices[:5]))}{', ...' if len(indices) > 5 else ''})"
                     for why, indices in list(by_why.items())[:3])


def stream_once(index, max_tokens=12):
    """One streamed request, read to its end: ("answer", None),
    ("429", retry_after or None), ("hang", why) or ("error", why)."""
    messages = [{"role": "system", "content": "You answer in a few words."},
                {"role": "user", "content": f"{PROMPTS[index % len(PROMPTS)]} (request {index})"}]
    try:
        stream = client.chat.completions.create(
            model=model_name, messages=messages, max_tokens=max_tokens, temperature=0.7, seed=index, stream=True,
        )
        reasons, after_finish = [], 0
        for chunk in stream:
            for choice in chunk.choices:
                if reasons:
                    after_finish += 1
                if choice.finish_reason:
                    reasons.append(choice.finish_reason)
        if len(reasons) != 1 or reasons[0] not in ("stop", "length") or after_finish:
            return "error", f"an incomplete stream: finish reasons {reasons}, {after_finish} choices after the finish"
        return "answer", None
    except openai.RateLimitError as error:
        return "429", error.response.headers.get("retry-after")
    except (openai.APITimeoutError, httpx.TimeoutException) as error:
        # Before the response: the client's APITimeoutError; while reading
        # the stream: httpx's own ReadTimeout.
        return "hang", describe(error)
    except Exception as error:  # noqa: BLE001
        return "error", describe(error)


def wave(first_index, size, max_tokens=12):
    """`size` streaming clients started at once; their outcomes, with
    ("hang", ...) for each still running at the wave's deadline."""
    outcomes = [None] * size
    barrier = threading.Barrier(size)

    def client_thread(slot):
        barrier.wait()
        outcomes[slot] = stream_once(first_index + slot, max_tokens)

    threads = [threading.Thread(target=client_thread, args=(slot,), daemon=True) for slot in range(size)]
    for thread in threads:
        thread.start()
    deadline = time.time() + WAVE_DEADLINE
    for thread in threads:
        thread.join(max(0, deadline - time.time()))
    return [outcome or ("hang", f"still running after the wave's {WAVE_DEADLINE} s deadline") for outcome in outcomes]


def waves_of_32():
    """The default run: 500 requests in waves of 32 against `--parallel 4
    --max-queue 8`, memory over them, 16 clients that leave mid-stream."""
    # MARK: 500 requests in waves of 32 concurrent streaming clients

    answered = limited = 0
    no_retry_after, hangs, errors = [], [], []
    waves_answered_and_limited = []  # (answers, 429s) of each full wave
    wave_seconds = []
    rss_start = resident_mib()
    rss_50 = None
    done = 0
    load_started = time.time()
    while done < TOTAL and time.time() - load_started < LOAD_DEADLINE:
        # The first 50 requests are a wave of 32 and one of 18; then waves of 32.
        size = min(WAVE, (BASELINE if done < BASELINE else TOTAL) - done)
        wave_started = time.time()
        outcomes = wave(done, size)
        wave_seconds.append(round(time.time() - wave_started, 1))
        wave_answers = sum(1 for kind, _ in outcomes if kind == "answer")
        wave_limited = sum(1 for kind, _ in outcomes if kind == "429")
        answered += wave_answers
        limited += wave_limited
        for slot, (kind, detail) in enumerate(outcomes):
            if kind == "429" and detail is None:
                no_retry_after.append(done + slot)
            elif kind == "hang":
                hangs.append((done + slot, detail))
            elif kind == "error":
                errors.append((done + slot, detail))
        if size == WAVE:
            waves_answered_and_limited.append((wave_answers, wave_limited))
        done += size
        if done == BASELINE:
            rss_50 = resident_mib()
    load_seconds = time.time() - load_started
    rss_500 = resident_mib()
    if done < TOTAL:
        hangs.append((done, f"the waves' {LOAD_DEADLINE} s deadline passed after {done} of {TOTAL} requests"))

    info(f"{done} requests in waves of up to {WAVE}: {answered} answered, {limited} turned away with 429, "
         f"{len(errors)} failed, {len(hangs)} hung ({load_seconds:.1f} s)")
    info(f"answers and 429s per wave of {WAVE}: {waves_answered_and_limited}")
    info(f"seconds per wave: {wave_seconds}")
    check(f"{WAVE} concurrent streams: every request is a complete answer or a 429", not errors,
          f"{len(errors)} of {done}: {summary(errors)}")
    check(f"{WAVE} concurrent streams: every 429 has Retry-After", limited and not no_retry_after,
          f"{len(no_retry_after)} of {limited} without it (requests {no_retry_after[:10]})" if limited else "no 429 at all")
    check(f"{WAVE} concurrent streams: none hangs", not hangs, f"{len(hangs)} of {done}: {summary(hangs)}")
    check(f"{WAVE} concurrent streams: each wave has answers and 429s ({PARALLEL} decoding, {MAX_QUEUE} waiting, the rest turned away)",
          waves_answered_and_limited and all(a >= PARALLEL and l > 0 for a, l in waves_answered_and_limited),
          f"(answers, 429s) per wave: {waves_answered_and_limited}")

    info(f"server resident memory: {rss_start:.1f} MiB before, {rss_50:.1f} MiB after {BASELINE} requests, "
         f"{rss_500:.1f} MiB after {done}" if None not in (rss_start, rss_50, rss_500)
         else f"server resident memory unreadable: {rss_start}, {rss_50}, {rss_500}")
    check(f"memory: resident size after {TOTAL} requests within {MEMORY_GROWTH_MIB} MiB of after {BASELINE}",
          done == TOTAL and rss_50 is not None and rss_500 is not None and rss_500 - rss_50 <= MEMORY_GROWTH_MIB,
          f"{rss_50} MiB after {BASELINE} -> {rss_500} MiB after {done}")

    # MARK: 16 clients leave mid-stream

    # At most 8 of them at once (4 decoding, 4 waiting): fewer than the server
    # admits, so none is turned away while an earlier one is still being let go;
    # those waiting get a sequence only as the ones before them leave.
    admitted = threading.Semaphore(PARALLEL + MAX_QUEUE - 4)
    left, leaver_problems = [], []
    steps = []  # seconds between a leaver's first and third piece, over two


    def median(values):
        return sorted(values)[len(values) // 2] if values else None


    def leave_early(index):
        with admitted:
            try:
                stream = client.chat.completions.create(
                    model=model_name, max_tokens=600, temperature=0.8, seed=100 + index, stream=True,
                    messages=[{"role": "user", "content": f"Write a very long story about a lighthouse keeper named {index}."}],
                )
                pieces, first_piece = 0, None
                for chunk in stream:
                    if any(choice.finish_reason for choice in chunk.choices):
                        leaver_problems.append(f"leaver {index}: the answer finished after {pieces} pieces")
                        break
                    if any(choice.delta.content for choice in chunk.choices):
                        pieces += 1
                        first_piece = first_piece or time.time()
                    if pieces >= 3:
                        steps.append((time.time() - first_piece) / 2)
                        left.append(index)
                        break
                stream.close()
            except Exception as error:  # noqa: BLE001
                leaver_problems.append(f"leaver {index}: {describe(error)}")


    leavers_started = time.time()
    leavers = [threading.Thread(target=leave_early, args=(index,), daemon=True) for index in range(LEAVERS)]
    for leaver in leavers:
        leaver.start()
    for leaver in leavers:
        leaver.join(max(0, leavers_started + WAVE_DEADLINE - time.time()))
    leavers_seconds = time.time() - leavers_started
    still_running = sum(1 for leaver in leavers if leaver.is_alive())
    info(f"{len(left)} of {LEAVERS} clients read 3 pieces of a 600-token answer and closed the stream ({leavers_seconds:.1f} s)")
    check(f"disconnects: {LEAVERS} clients left mid-stream", len(left) == LEAVERS and not still_running,
          f"{len(left)} left, {still_running} still running; {'; '.join(leaver_problems[:3])}")

    # The next request: its first token at once, not after the long answers
    # (about 600 decoding steps each): within a few seconds, or, where the
    # machine decodes slowly (other work on its cores), within 20 steps.
    step = median(steps)
    first_token_limit = max(FIRST_TOKEN_LIMIT, FIRST_TOKEN_STEPS * step) if step else FIRST_TOKEN_LIMIT
    first_token, finished, problem = None, False, ""
    sent = time.time()
    try:
        stream = client.chat.completions.create(
            model=model_name, messages=[{"role": "user", "content": "Say hi."}], max_tokens=8, temperature=0, stream=True,
        )
        for chunk in stream:
            for choice in chunk.choices:
                if choice.delta.content and first_token is None:
                    first_token = time.time() - sent
                if choice.finish_reason:
                    finished = True
    except Exception as error:  # noqa: BLE001
        problem = describe(error)
    info(f"first token after the disconnects: {first_token:.2f} s (limit {first_token_limit:.1f} s; "
         f"a decoding step took {step or 0:.3f} s while the leavers read)" if first_token is not None
         else f"no first token after the disconnects ({problem or 'an empty answer'})")
    check(f"disconnects: the next request's first token within {FIRST_TOKEN_LIMIT} s (or {FIRST_TOKEN_STEPS} decoding steps)",
          first_token is not None and first_token < first_token_limit and finished,
          f"first token after {first_token} s, limit {first_token_limit:.1f} s, finished {finished} {problem}")

    # All the sequences at once, each answered to the end.
    batch_started = time.time()
    outcomes = wave(1000, PARALLEL)
    batch_seconds = time.time() - batch_started
    info(f"a batch of {PARALLEL} after the disconnects: {[kind for kind, _ in outcomes]} ({batch_seconds:.1f} s)")
    check(f"disconnects: then a batch of {PARALLEL} concurrent requests is answered to the end",
          all(kind == "answer" for kind, _ in outcomes), str(outcomes))

    rss_end = resident_mib()
    check("the server is still running", rss_end is not None, f"no /proc/{server_pid}/status")
    info(f"server resident memory at the end: {rss_end:.1f} MiB" if rss_end is not None else "server gone")
    info(f"elapsed: {time.time() - started:.1f} s")


# MARK: passes: waves of 64 and wrk against 2 sequences and a queue of 4

PASS_PARALLEL, PASS_MAX_QUEUE = 2, 4  # the server's flags in this mode (FMServeProcess's)
PASSES = 2                  # the first warms the caches; memory is compared from it to the next
PASS_WAVES, PASS_WAVE = 10, 64
PASS_MEMORY_GROWTH_MIB = 32
PASS_MAX_TOKENS = 8         # short answers: the waves test admission, not decoding
WRK_THREADS, WRK_CONNECTIONS, WRK_SECONDS, WRK_MAX_TOKENS = 2, 64, 10, 8


def raw(method, path, body=None, headers=None, key=True):
    """A request sent by hand on a connection of its own: (status, JSON body or None)."""
    import http.client
    import json
    import urllib.parse
    target = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=REQUEST_TIMEOUT)
    sent = {"Content-Type": "application/json"}
    if key:
        sent["Authorization"] = f"Bearer {api_key}"
    sent.update(headers or {})
    try:
        data = body.encode() if isinstance(body, str) else body
        connection.request(method, target.path.rstrip("/") + path, body=data, headers=sent)
        response = connection.getresponse()
        text = response.read()
        try:
            return response.status, json.loads(text or b"null")
        except ValueError:
            return response.status, None
    finally:
        connection.close()


def sent_by_hand(text, read_answer=True):
    """Bytes sent on a raw connection: the status line of the answer (read
    even past a broken pipe), or "" when the connection just closes."""
    import socket
    import urllib.parse
    target = urllib.parse.urlsplit(base_url)
    with socket.create_connection((target.hostname, target.port), timeout=60) as connection:
        try:
            for piece in text if isinstance(text, list) else [text]:
                connection.sendall(piece)
        except OSError:
            pass
        if not read_answer:
            return ""
        answer = b""
        try:
            while b"\r\n" not in answer:
                data = connection.recv(65536)
                if not data:
                    break
                answer += data
        except OSError:
            pass
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


def bad_inputs():
    """Malformed and refused requests, each its 4xx in OpenAI's error shape,
    and clients that give up halfway: [(name, expected, got)] for those
    answered otherwise."""
    import json
    user = {"role": "user", "content": "Hi"}
    chat = "/chat/completions"
    wrong = []

    def expect(name, statuses, got):
        status, body = got
        shaped = isinstance(body, dict) and isinstance(body.get("error"), dict) and isinstance(body["error"].get("message"), str)
        if status not in statuses or not shaped:
            wrong.append((name, statuses, f"{status} {str(body)[:100]}"))

    for name, payload in [
        ("empty messages", {"model": model_name, "messages": []}),
        ("messages of the wrong type", {"model": model_name, "messages": "Hi"}),
        ("an unknown role", {"model": model_name, "messages": [{"role": "robot", "content": "Hi"}]}),
        ("n = 3", {"model": model_name, "n": 3, "messages": [user]}),
        ("temperature 7", {"model": model_name, "temperature": 7, "messages": [user]}),
        ("max_tokens 0", {"model": model_name, "max_tokens": 0, "messages": [user]}),
        ("an unknown field", {"model": model_name, "temperatur": 0.5, "messages": [user]}),
        ("a schema it cannot enforce", {"model": model_name, "messages": [user], "response_format": {
            "type": "json_schema", "json_schema": {"name": "x", "schema": {
                "type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}, "uniqueItems": True}}}}}}),
        ("stream_options without stream", {"model": model_name, "messages": [user], "stream_options": {"include_usage": True}}),
    ]:
        expect(name, {400}, raw("POST", chat, json.dumps(payload)))
    expect("malformed JSON", {400}, raw("POST", chat, '{"messages": ['))
    expect("a body that is not an object", {400}, raw("POST", chat, "[1, 2]"))
    expect("a body that is not UTF-8", {400}, raw("POST", chat, b'{"messages": [{"role": "user", "content": "caf\xe9 \xff"}]}'))
    expect("malformed JSON to /responses", {400}, raw("POST", "/responses", '{"input": '))
    expect("a model it does not serve", {404}, raw("POST", chat, json.dumps({"model": "gpt-9", "messages": [user]})))
    expect("no key", {401}, raw("POST", chat, json.dumps({"model": model_name, "messages": [user]}), key=False))
    expect("a wrong key", {401}, raw("POST", chat, json.dumps({"model": model_name, "messages": [user]}),
                                     headers={"Authorization": "Bearer wrong"}))
    expect("an unknown path", {404}, raw("GET", "/nowhere"))
    host = base_url.split("//")[1].split("/")[0]
    head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {api_key}\r\n"
            f"Content-Type: application/json\r\n")
    # A body past the limit (2 MiB): 413 as soon as it passes, the rest unread.
    line = sent_by_hand([(head + f"Content-Length: {2 << 20}\r\n\r\n").encode()] + [b" " * 65536] * 32)
    if " 413 " not in line:
        wrong.append(("a 2 MiB body", {413}, line))
    # Requests that stop halfway, then close: a head without its end, a
    # body shorter than its Content-Length. Nothing to answer; nothing may stay.
    sent_by_hand(head.encode(), read_answer=False)
    sent_by_hand((head + "Content-Length: 100\r\n\r\n{\"messages\": [").encode(), read_answer=False)
    # Streams left after their first piece.
    for index in range(4):
        try:
            stream = client.chat.completions.create(
                model=model_name, max_tokens=64, stream=True, seed=index,
                messages=[{"role": "user", "content": "Tell me a story about a boat."}])
            next(iter(stream))
            stream.close()
        except openai.RateLimitError:
            pass
        except Exception as error:  # noqa: BLE001
            wrong.append((f"a stream left after its first piece ({index})", {200, 429}, describe(error)))
    return wrong


def run_wrk(wrk, script):
    """wrk's run: its counts, from its summary and the script's done() line."""
    import re
    import subprocess
    command = [wrk, "-t", str(WRK_THREADS), "-c", str(WRK_CONNECTIONS), "-d", f"{WRK_SECONDS}s", "--timeout", f"{REQUEST_TIMEOUT}s",
               "-s", script, base_url.rstrip("/") + "/chat/completions", "--", api_key, model_name, str(WRK_MAX_TOKENS)]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=WRK_SECONDS + WAVE_DEADLINE)
    except subprocess.TimeoutExpired:
        return {"problem": f"wrk still running after {WRK_SECONDS + WAVE_DEADLINE} s"}
    output = result.stdout
    counts = {"exit": result.returncode, "connect": 0, "read": 0, "write": 0, "timeout": 0, "non2xx": 0}
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if socket_errors:
        counts.update(zip(["connect", "read", "write", "timeout"], map(int, socket_errors.groups())))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if non2xx:
        counts["non2xx"] = int(non2xx.group(1))
    total = re.search(r"(\d+) requests in ", output)
    result_line = re.search(r"wrk-result: (.*)", output)
    if not total or not result_line:
        return {"problem": f"no summary in wrk's output (exit {result.returncode}): {output[-300:]} {result.stderr[-300:]}"}
    counts["summary_requests"] = int(total.group(1))
    for field in result_line.group(1).split():
        name, _, value = field.partition("=")
        counts[name] = int(value) if value.isdigit() else value
    return counts


def in_progress():
    """(requests waiting, requests generating) from the server's /metrics, or None."""
    import re
    import urllib.request
    request = urllib.request.Request(base_url.rstrip("/").removesuffix("/v1") + "/metrics",
                                     headers={"Authorization": f"Bearer {api_key}"})
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
            text = response.read().decode()
    except OSError:
        return None
    values = [re.search(rf"^fm_serve_requests_{name} (\S+)$", text, re.MULTILINE) for name in ("waiting", "generating")]
    return tuple(float(value.group(1)) for value in values) if all(values) else None


def wait_until_idle():
    """Seconds until nothing waits or generates (the requests of clients
    that left are let go as the server notices), or None by the deadline."""
    waited = time.time()
    while time.time() - waited < WAVE_DEADLINE:
        if in_progress() == (0, 0):
            return round(time.time() - waited, 1)
        time.sleep(0.25)
    return None


def passes(wrk, script):
    """The load and bad-input suites, twice over one server: waves of 64
    streaming openai clients, wrk's 64 connections, the bad inputs; the
    server's resident memory after each pass."""
    waves_seen, no_retry_after, errors, hangs = [], [], [], []
    wrk_runs, wrong_inputs, rss, pass_seconds, idle = [], [], [], [], []
    index = 0
    for number in range(1, PASSES + 1):
        pass_started = time.time()
        for _ in range(PASS_WAVES):
            outcomes = wave(index, PASS_WAVE, max_tokens=PASS_MAX_TOKENS)
            waves_seen.append((sum(1 for kind, _ in outcomes if kind == "answer"), sum(1 for kind, _ in outcomes if kind == "429")))
            for slot, (kind, detail) in enumerate(outcomes):
                if kind == "429" and detail is None:
                    no_retry_after.append(index + slot)
                elif kind == "hang":
                    hangs.append((index + slot, detail))
                elif kind == "error":
                    errors.append((index + slot, detail))
            index += PASS_WAVE
        wrk_runs.append(run_wrk(wrk, script))
        wrong_inputs += [(number, *wrong) for wrong in bad_inputs()]
        # Memory is read, and the next pass starts, once the requests of
        # the clients that left (wrk's last, the bad inputs') are let go.
        idle.append(wait_until_idle())
        pass_seconds.append(round(time.time() - pass_started, 1))
        rss.append(resident_mib())
        info(f"pass {number}: {pass_seconds[-1]} s (idle {idle[-1]} s after the last client left), "
             f"server resident memory {rss[-1]} MiB; wrk {wrk_runs[-1]}")

    requests = len(waves_seen) * PASS_WAVE
    answered, limited = sum(a for a, _ in waves_seen), sum(l for _, l in waves_seen)
    connection_errors = [error for error in errors if "APIConnectionError" in error[1]]
    server_errors = [error for error in errors if error[1].startswith("HTTP 5")]
    info(f"openai client: {requests} requests in {len(waves_seen)} waves of {PASS_WAVE}: {answered} answered, {limited} turned away "
         f"with 429, {len(errors)} failed ({len(connection_errors)} connection errors, {len(server_errors)} 5xx), {len(hangs)} hung")
    info(f"openai client: answers and 429s per wave: {waves_seen}")
    check(f"{PASS_WAVE} concurrent streams in {PASS_WAVES} waves, {PASSES} passes: every request is a complete answer or a 429 "
          f"(no connection error, no 5xx)", not errors, f"{len(errors)} of {requests}: {summary(errors)}")
    check(f"{PASS_WAVE} concurrent streams: none hangs", not hangs, f"{len(hangs)} of {requests}: {summary(hangs)}")
    check(f"{PASS_WAVE} concurrent streams: every 429 has Retry-After", limited and not no_retry_after,
          f"{len(no_retry_after)} of {limited} without it (requests {no_retry_after[:10]})" if limited else "no 429 at all")
    check(f"{PASS_WAVE} concurrent streams: each wave has answers and 429s ({PASS_PARALLEL} decoding, {PASS_MAX_QUEUE} waiting)",
          all(a >= PASS_PARALLEL and l > 0 for a, l in waves_seen), f"(answers, 429s) per wave: {waves_seen}")

    problems = [run["problem"] for run in wrk_runs if "problem" in run]
    complete = [run for run in wrk_runs if "problem" not in run]
    check("wrk: each run reports its summary", not problems and len(complete) == PASSES, "; ".join(problems))
    check(f"wrk, {WRK_CONNECTIONS} connections: every response is a complete answer or a 429 with Retry-After (no 5xx)",
          complete and all(run["incomplete"] == 0 and run["other"] == 0 and run["no_retry_after"] == 0 and run["exit"] == 0
                           and run["requests"] == run["answers"] + run["limited"] for run in complete),
          str(complete))
    check("wrk: no socket error (connect, read, write, timeout)",
          complete and all(run["connect"] + run["read"] + run["write"] + run["timeout"] == 0 for run in complete), str(complete))
    check("wrk: its summary agrees with the script (requests; non-2xx are the 429s)",
          complete and all(run["summary_requests"] == run["requests"] and run["non2xx"] == run["limited"] for run in complete),
          str(complete))
    check("wrk: each run has answers and 429s", complete and all(run["answers"] > 0 and run["limited"] > 0 for run in complete),
          str(complete))

    check("bad inputs: each is its 4xx with an error body, both passes", not wrong_inputs,
          "; ".join(f"pass {number}: {name}: expected {expected}, got {got}" for number, name, expected, got in wrong_inputs[:5]))
    check(f"after each pass nothing is left waiting or generating (within {WAVE_DEADLINE} s)", None not in idle,
          f"seconds until idle after each pass: {idle}; now (waiting, generating): {in_progress()}")
    after = stream_once(10_000, max_tokens=PASS_MAX_TOKENS)
    check("then a request is answered", after[0] == "answer", str(after))

    info(f"server resident memory after each pass: {rss} MiB; seconds per pass: {pass_seconds}")
    check(f"memory: resident size after pass {PASSES} within {PASS_MEMORY_GROWTH_MIB} MiB of after pass 1",
          None not in rss and rss[-1] - rss[0] <= PASS_MEMORY_GROWTH_MIB, f"{rss} MiB")
    info(f"elapsed: {time.time() - started:.1f} s")


if len(sys.argv) > 5 and sys.argv[5] == "passes":
    passes(*sys.argv[6:8])
else:
    waves_of_32()
finish()
