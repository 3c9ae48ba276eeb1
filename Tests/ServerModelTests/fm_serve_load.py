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

Usage: python fm_serve_load.py BASE_URL API_KEY MODEL_NAME SERVER_PID

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


def wave(first_index, size):
    """`size` streaming clients started at once; their outcomes, with
    ("hang", ...) for each still running at the wave's deadline."""
    outcomes = [None] * size
    barrier = threading.Barrier(size)

    def client_thread(slot):
        barrier.wait()
        outcomes[slot] = stream_once(first_index + slot)

    threads = [threading.Thread(target=client_thread, args=(slot,), daemon=True) for slot in range(size)]
    for thread in threads:
        thread.start()
    deadline = time.time() + WAVE_DEADLINE
    for thread in threads:
        thread.join(max(0, deadline - time.time()))
    return [outcome or ("hang", f"still running after the wave's {WAVE_DEADLINE} s deadline") for outcome in outcomes]


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

finish()
