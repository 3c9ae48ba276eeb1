"""fm serve as an operator and a browser see it: `GET /metrics` read with
prometheus_client's text parser after a known sequence of requests (the
counters must equal what was sent and answered), and CORS (preflight and
response headers) as a browser would ask. Started by FMServeTests.swift.

Usage: python fm_serve_ops.py BASE_URL API_KEY MODEL_NAME MODE
  MODE metrics: the sequence and /metrics (CORS allowed for http://localhost:8000)
  MODE cors-any: the server allows '*'
  MODE cors-off: the server allows no origin (the default)
  MODE socket: BASE_URL is unix:PATH, the server's --socket

Prints `ok: NAME` / `FAILED: NAME: why`; exits 1 if any failed.
"""
import sys
import threading
import time
import urllib.error
import urllib.request

import openai
from prometheus_client.parser import text_string_to_metric_families

from fm_serve_checks import check, finish, info

base_url, api_key, model_name, mode = sys.argv[1:5]

if mode == "socket":
    # The openai client over a Unix domain socket: httpx's transport on it.
    import httpx
    transport = httpx.HTTPTransport(uds=base_url.removeprefix("unix:"))
    client = openai.OpenAI(base_url="http://localhost/v1", api_key=api_key, max_retries=0, timeout=120,
                           http_client=httpx.Client(transport=transport))
    reply = client.chat.completions.create(model=model_name, messages=[{"role": "user", "content": "Say hi."}], max_tokens=4)
    check("socket: a chat answer", reply.choices[0].message.content != "", str(reply))
    response = client.responses.create(model=model_name, input="Say hi.", max_output_tokens=4)
    check("socket: a Responses answer", response.output_text != "", str(response))
    with httpx.Client(transport=httpx.HTTPTransport(uds=base_url.removeprefix("unix:"))) as raw:
        health = raw.get("http://localhost/health")
    check("socket: health", health.status_code == 200 and health.json() == {
        "status": "ok", "models": [{"id": model_name, "available": True}]}, health.text)
    finish()
root = base_url.rsplit("/v1", 1)[0]
# Generous: on a loaded two-core machine the burst's last queued request
# waits for two answers before its first token.
client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=600)
ORIGIN = "http://localhost:8000"


def http(method, path, headers=None, body=None, key=True):
    """Status and headers (lower-case names) of a request sent by hand."""
    request = urllib.request.Request(root + path, data=body, method=method)
    if key:
        request.add_header("Authorization", f"Bearer {api_key}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def preflight(origin):
    return http("OPTIONS", "/v1/chat/completions", key=False, headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, x-stainless-os",
    })


CHAT = b'{"messages": [{"role": "user", "content": "Say hi."}], "max_tokens": 4, "temperature": 0}'

if mode == "cors-off":
    status, headers, _ = preflight(ORIGIN)
    check("cors off: a preflight gets no CORS headers", "access-control-allow-origin" not in headers, f"{status} {headers}")
    status, headers, _ = http("POST", "/v1/chat/completions", {"Origin": ORIGIN, "Content-Type": "application/json"}, CHAT)
    check("cors off: an answer without Access-Control-Allow-Origin", status == 200 and "access-control-allow-origin" not in headers,
          f"{status} {headers}")
    finish()

if mode == "cors-any":
    status, headers, _ = preflight("https://anywhere.example")
    check("cors '*': the preflight allows any origin", status == 204 and headers.get("access-control-allow-origin") == "*"
          and "access-control-allow-credentials" not in headers, f"{status} {headers}")
    status, headers, _ = http("POST", "/v1/chat/completions", {"Origin": "https://anywhere.example", "Content-Type": "application/json"}, CHAT)
    check("cors '*': the answer too, never with credentials", status == 200 and headers.get("access-control-allow-origin") == "*"
          and "access-control-allow-credentials" not in headers, f"{status} {headers}")
    finish()

# MODE metrics: CORS for one origin first.
status, headers, _ = preflight(ORIGIN)
allowed = headers.get("access-control-allow-headers", "").lower()
check("cors: the preflight is answered without the key", status == 204 and headers.get("access-control-allow-origin") == ORIGIN
      and "authorization" in allowed and "x-stainless-os" in allowed and "POST" in headers.get("access-control-allow-methods", ""),
      f"{status} {headers}")
check("cors: credentials are never allowed", "access-control-allow-credentials" not in headers, str(headers))
status, headers, _ = preflight("http://evil.example")
check("cors: another origin's preflight is not allowed", "access-control-allow-origin" not in headers, f"{status} {headers}")
status, headers, _ = http("POST", "/v1/chat/completions", {"Origin": ORIGIN, "Content-Type": "application/json",
                                                            "X-Request-ID": "ops-check-1"}, CHAT)
check("cors: the answer names the origin and exposes the request id", status == 200
      and headers.get("access-control-allow-origin") == ORIGIN and "x-request-id" in headers.get("access-control-expose-headers", "")
      and headers.get("x-request-id") == "ops-check-1", f"{status} {headers}")
status, headers, _ = http("GET", "/v1/models", {"Origin": ORIGIN}, key=False)
check("cors: a 401 is readable by the page", status == 401 and headers.get("access-control-allow-origin") == ORIGIN, f"{status} {headers}")
status, headers, _ = http("POST", "/v1/chat/completions", {"Content-Type": "application/json"}, CHAT)
check("cors: no Origin, no CORS headers", status == 200 and "access-control-allow-origin" not in headers, f"{status} {headers}")


def scrape():
    status, _, body = http("GET", "/metrics")
    samples = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return status, samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0)


status, before = scrape()
check("metrics: served", status == 200 and value(before, "fm_serve_parallel_sequences") == 2
      and value(before, "fm_serve_max_queue") == 4, f"{status} {len(before)} samples")

# The known sequence: what each request was answered with, and its tokens.
sent = {"chat_200": 0, "chat_400": 0, "chat_429": 0, "responses_200": 0, "prompt": 0, "generated": 0}
lock = threading.Lock()


def answered(route, usage_in, usage_out):
    with lock:
        sent[f"{route}_200"] += 1
        sent["prompt"] += usage_in
        sent["generated"] += usage_out


for _ in range(3):
    reply = client.chat.completions.create(model=model_name, messages=[{"role": "user", "content": "Name a color."}], max_tokens=8)
    answered("chat", reply.usage.prompt_tokens, reply.usage.completion_tokens)
for _ in range(2):
    usage = None
    for chunk in client.chat.completions.create(model=model_name, messages=[{"role": "user", "content": "Count to three."}],
                                                max_tokens=12, stream=True, stream_options={"include_usage": True}):
        usage = chunk.usage or usage
    answered("chat", usage.prompt_tokens, usage.completion_tokens)
reply = client.responses.create(model=model_name, input="Name a fruit.", max_output_tokens=8)
answered("responses", reply.usage.input_tokens, reply.usage.output_tokens)
events = list(client.responses.create(model=model_name, input="Name a tree.", max_output_tokens=8, stream=True))
answered("responses", events[-1].response.usage.input_tokens, events[-1].response.usage.output_tokens)
for bad in [b'{"messages": []}', b'{"messages": "x"}']:
    status, _, _ = http("POST", "/v1/chat/completions", {"Content-Type": "application/json"}, bad)
    sent["chat_400"] += status == 400

# A burst beyond 2 sequences and a queue of 4: the rest are 429s.
def burst_request():
    try:
        usage = None
        for chunk in client.chat.completions.create(
                model=model_name, messages=[{"role": "user", "content": "Write a long story about the sea."}],
                max_tokens=32, stream=True, stream_options={"include_usage": True}):
            usage = chunk.usage or usage
        answered("chat", usage.prompt_tokens, usage.completion_tokens)
    except openai.RateLimitError:
        with lock:
            sent["chat_429"] += 1


threads = [threading.Thread(target=burst_request) for _ in range(14)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
info(f"burst: {sent['chat_429']} of 14 turned away with 429")
check("the burst met a full queue", sent["chat_429"] > 0, str(sent))

# A client that leaves after the first piece: a cancellation (200 sent, no tokens counted).
stream = client.chat.completions.create(model=model_name, messages=[{"role": "user", "content": "Write a long story about a king."}],
                                        max_tokens=400, stream=True)
next(iter(stream))
stream.close()
sent["chat_200"] += 1
# The server learns of it at its next write: a token away, which on a
# loaded machine may be seconds.
deadline = time.time() + 60
while True:
    status, after = scrape()
    settled = value(after, "fm_serve_requests_waiting") == 0 and value(after, "fm_serve_requests_generating") == 0
    if (settled and value(after, "fm_serve_cancelled_total") > value(before, "fm_serve_cancelled_total")) or time.time() > deadline:
        break
    time.sleep(0.5)


def delta(name, **labels):
    return value(after, name, **labels) - value(before, name, **labels)


def requests(route, status):
    return delta("fm_serve_requests_total", route=route, method="POST", status=str(status))


check("metrics: chat 200s", requests("/v1/chat/completions", 200) == sent["chat_200"], f"{requests('/v1/chat/completions', 200)} {sent}")
check("metrics: chat 400s", requests("/v1/chat/completions", 400) == sent["chat_400"] == 2, f"{requests('/v1/chat/completions', 400)} {sent}")
check("metrics: chat 429s", requests("/v1/chat/completions", 429) == sent["chat_429"], f"{requests('/v1/chat/completions', 429)} {sent}")
check("metrics: responses 200s", requests("/v1/responses", 200) == sent["responses_200"] == 2, f"{requests('/v1/responses', 200)} {sent}")
check("metrics: the 429 counter", delta("fm_serve_rate_limited_total") == sent["chat_429"], f"{delta('fm_serve_rate_limited_total')} {sent}")
check("metrics: prompt tokens", delta("fm_serve_prompt_tokens_total") == sent["prompt"], f"{delta('fm_serve_prompt_tokens_total')} {sent}")
check("metrics: generated tokens", delta("fm_serve_generated_tokens_total") == sent["generated"],
      f"{delta('fm_serve_generated_tokens_total')} {sent}")
check("metrics: the cancellation", delta("fm_serve_cancelled_total") == 1, str(delta("fm_serve_cancelled_total")))
answers = sent["chat_200"] + sent["responses_200"]
first_tokens = delta("fm_serve_time_to_first_token_seconds_count")
check("metrics: a time to first token per answer", first_tokens == answers, f"{first_tokens} vs {answers}")
check("metrics: time per output token observed", 0 < delta("fm_serve_time_per_output_token_seconds_count") <= answers - 1
      and delta("fm_serve_time_per_output_token_seconds_sum") > 0, str(delta("fm_serve_time_per_output_token_seconds_count")))
check("metrics: nothing waiting or generating after", value(after, "fm_serve_requests_waiting") == 0
      and value(after, "fm_serve_requests_generating") == 0,
      f"{value(after, 'fm_serve_requests_waiting')} {value(after, 'fm_serve_requests_generating')}")
status, samples = scrape()
check("metrics: a second scrape is counted under its route", value(samples, "fm_serve_requests_total", route="/metrics", method="GET",
                                                                       status="200") >= 2, str(status))
finish()
