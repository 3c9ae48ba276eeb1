"""fm serve, as a Python service reaches it: the official `openai` client
(and raw HTTP for what a client library never sends) against a real
`fm serve` on 127.0.0.1, started by FMServeTests.swift.

Usage: python fm_serve_client.py BASE_URL API_KEY MODEL_NAME

Prints `ok: NAME` for each check that passed and `FAILED: NAME: why` for
each that did not; exits 1 if any failed.
"""
import json
import sys
import urllib.error
import urllib.request

import jsonschema
import openai

from fm_serve_checks import check, finish

base_url, api_key, model_name = sys.argv[1:4]
client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=120)


def raw(method, path, body=None, headers=None):
    """The status, headers and JSON body of a request sent by hand."""
    data = body if isinstance(body, (bytes, type(None))) else body.encode()
    request = urllib.request.Request(base_url.rstrip("/") + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {api_key}")
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


def oversized(size):
    """The status line a body of `size` bytes gets. The server answers 413
    as soon as the body passes its limit and closes the connection, so a
    client still sending sees a broken pipe: the answer is read anyway."""
    import socket
    host, port = base_url.split("//")[1].split("/")[0].split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        head = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {api_key}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n")
        connection.sendall(head.encode())
        chunk = b" " * 65536
        try:
            for _ in range(size // len(chunk)):
                connection.sendall(chunk)
        except OSError:
            pass
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                data = connection.recv(65536)
                if not data:
                    break
                answer += data
        except OSError:
            pass
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


def answers_normally(after):
    reply = client.chat.completions.create(
        model=model_name, messages=[{"role": "user", "content": "Say hi."}], max_tokens=4, temperature=0
    )
    check(f"a normal request is answered after {after}", reply.choices[0].message.content is not None)


SYSTEM = {"role": "system", "content": "You answer in a few words."}

# A chat, with its usage.
reply = client.chat.completions.create(
    model=model_name, messages=[SYSTEM, {"role": "user", "content": "What is the capital of France?"}],
    max_tokens=16, temperature=0,
)
choice = reply.choices[0]
check("chat: an answer", isinstance(choice.message.content, str) and choice.message.content.strip() != "", repr(choice.message.content))
check("chat: finish_reason", choice.finish_reason in ("stop", "length"), choice.finish_reason)
check("chat: usage adds up", reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0
      and reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens, str(reply.usage))
check("chat: the answer stays within max_tokens", reply.usage.completion_tokens <= 16, str(reply.usage))
check("chat: the model's name", reply.model == model_name, reply.model)

# A conversation: earlier turns are the session's history.
reply = client.chat.completions.create(
    model=model_name, max_tokens=8, temperature=0,
    messages=[SYSTEM, {"role": "user", "content": "My name is Ada."}, {"role": "assistant", "content": "Hello Ada."},
              {"role": "user", "content": [{"type": "text", "text": "What is my name?"}]}],
)
check("conversation: answered with content parts", isinstance(reply.choices[0].message.content, str))

# Streamed, with usage last.
stream = client.chat.completions.create(
    model=model_name, messages=[SYSTEM, {"role": "user", "content": "Count from one to five."}],
    max_tokens=24, temperature=0, stream=True, stream_options={"include_usage": True},
)
pieces, reasons, usage = [], [], None
for chunk in stream:
    if chunk.usage is not None:
        usage = chunk.usage
        check("stream: the usage chunk has no choices", chunk.choices == [], str(chunk.choices))
    for streamed in chunk.choices:
        if streamed.delta.content:
            pieces.append(streamed.delta.content)
        if streamed.finish_reason:
            reasons.append(streamed.finish_reason)
check("stream: text in several pieces", len(pieces) > 1 and "".join(pieces).strip() != "", repr(pieces))
check("stream: one finish_reason", len(reasons) == 1 and reasons[0] in ("stop", "length"), str(reasons))
check("stream: usage when asked for", usage is not None and usage.completion_tokens > 0, str(usage))

# Stop sequences end the answer where they begin.
reply = client.chat.completions.create(
    model=model_name, messages=[{"role": "user", "content": "Count from one to ten, separated by commas."}],
    max_tokens=40, temperature=0, stop=[","],
)
check("stop: the answer ends before the stop sequence", "," not in (reply.choices[0].message.content or ""), repr(reply.choices[0].message.content))

# A JSON Schema the answer must follow.
schema = {
    "type": "object", "additionalProperties": False, "required": ["city", "country", "population"],
    "properties": {
        "city": {"type": "string", "maxLength": 40},
        "country": {"type": "string", "enum": ["France", "Germany", "Italy", "Spain"]},
        "population": {"type": "integer", "minimum": 0},
    },
}
for stream_it in (False, True):
    kwargs = dict(
        model=model_name, messages=[{"role": "user", "content": "Describe the capital of France."}], max_tokens=80, temperature=0,
        response_format={"type": "json_schema", "json_schema": {"name": "city", "schema": schema, "strict": True}},
    )
    if stream_it:
        typed_pieces = [c.choices[0].delta.content for c in client.chat.completions.create(stream=True, **kwargs)
                        if c.choices and c.choices[0].delta.content]
        content = "".join(typed_pieces)
        check("json_schema (streamed): the JSON arrives as it is written", len(typed_pieces) > 3, repr(typed_pieces))
    else:
        content = client.chat.completions.create(**kwargs).choices[0].message.content
    try:
        jsonschema.validate(json.loads(content), schema)
        check(f"json_schema{' (streamed)' if stream_it else ''}: the answer validates", True)
    except Exception as error:  # noqa: BLE001
        check(f"json_schema{' (streamed)' if stream_it else ''}: the answer validates", False, f"{error}: {content!r}")

reply = client.chat.completions.create(
    model=model_name, messages=[{"role": "user", "content": "Give a JSON object about Paris."}], max_tokens=60, temperature=0,
    response_format={"type": "json_object"},
)
try:
    check("json_object: an object", isinstance(json.loads(reply.choices[0].message.content), dict), reply.choices[0].message.content)
except ValueError as error:
    check("json_object: an object", False, str(error))

# logprobs: each token of the answer with its log-probability and the three
# most likely tokens at its place; under greedy sampling the chosen token is
# the most likely one, and the tokens spell the answer. Streamed, each piece
# of text carries its tokens.
for stream_it in (False, True):
    name = f"logprobs{' (streamed)' if stream_it else ''}"
    kwargs = dict(model=model_name, messages=[{"role": "user", "content": "Name a colour."}], max_tokens=8, temperature=0,
                  logprobs=True, top_logprobs=3)
    if stream_it:
        content, tokens = "", []
        for chunk in client.chat.completions.create(stream=True, **kwargs):
            if chunk.choices:
                content += chunk.choices[0].delta.content or ""
                tokens += (chunk.choices[0].logprobs.content or []) if chunk.choices[0].logprobs else []
    else:
        choice = client.chat.completions.create(**kwargs).choices[0]
        content, tokens = choice.message.content, choice.logprobs.content
    check(f"{name}: one entry a token, spelling the answer", len(tokens) >= 1 and "".join(t.token for t in tokens) == content,
          f"{content!r} {[t.token for t in tokens]}")
    check(f"{name}: log-probabilities, the chosen token the most likely of three",
          all(t.logprob <= 0 and len(t.top_logprobs) == 3 and t.top_logprobs[0].token == t.token
              and t.top_logprobs[0].logprob >= t.top_logprobs[1].logprob >= t.top_logprobs[2].logprob
              and bytes(t.bytes).decode("utf-8", "replace") == t.token for t in tokens),
          str([(t.token, t.logprob, [(a.token, a.logprob) for a in t.top_logprobs]) for t in tokens]))

# Tools: the model calls one with arguments that follow its JSON Schema,
# the client runs it and sends the output back, and the model answers.
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather", "description": "The current weather in a city.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["city", "unit"], "properties": {
            "city": {"type": "string", "maxLength": 30}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        }},
    },
}
TIME = {"type": "function", "function": {"name": "get_time", "description": "The time now.", "parameters": {}}}
ASK = [{"role": "user", "content": "What is the weather in Paris, in celsius?"}]
for choice in ("required", {"type": "function", "function": {"name": "get_weather"}}):
    reply = client.chat.completions.create(
        model=model_name, messages=ASK, tools=[WEATHER, TIME], tool_choice=choice, max_tokens=60, temperature=0,
    )
    message, name = reply.choices[0].message, f"tools ({choice if isinstance(choice, str) else 'named'})"
    calls = message.tool_calls or []
    check(f"{name}: a tool call", reply.choices[0].finish_reason == "tool_calls" and len(calls) >= 1 and message.content is None,
          f"{reply.choices[0].finish_reason} {message}")
    if calls:
        call = calls[0]
        check(f"{name}: an OpenAI call id", call.id.startswith("call_") and call.type == "function", call.id)
        if call.function.name == "get_weather" or choice != "required":
            try:
                jsonschema.validate(json.loads(call.function.arguments), WEATHER["function"]["parameters"])
                check(f"{name}: arguments follow the tool's schema", call.function.name == "get_weather", call.function.name)
            except Exception as error:  # noqa: BLE001
                check(f"{name}: arguments follow the tool's schema", False, f"{error}: {call.function.arguments!r}")
        else:
            check(f"{name}: arguments follow the tool's schema", json.loads(call.function.arguments) == {}, call.function.arguments)

# The round trip: the call, its output, the answer (streamed, too).
first = client.chat.completions.create(
    model=model_name, messages=ASK, tools=[WEATHER], tool_choice="required", max_tokens=60, temperature=0,
).choices[0].message
conversation = ASK + [first.model_dump(exclude_none=True)] + [
    {"role": "tool", "tool_call_id": call.id, "content": "Sunny, 21 degrees."} for call in first.tool_calls or []
]
reply = client.chat.completions.create(
    model=model_name, messages=conversation, tools=[WEATHER], tool_choice="none", max_tokens=40, temperature=0,
)
check("tools: the answer after the output is text", isinstance(reply.choices[0].message.content, str)
      and not reply.choices[0].message.tool_calls and reply.choices[0].finish_reason in ("stop", "length"), str(reply.choices[0]))
streamed_calls, reasons = {}, []
for chunk in client.chat.completions.create(
    model=model_name, messages=ASK, tools=[WEATHER], tool_choice="required", max_tokens=60, temperature=0, stream=True,
):
    for streamed in chunk.choices:
        for delta in streamed.delta.tool_calls or []:
            entry = streamed_calls.setdefault(delta.index, {"id": delta.id, "name": "", "arguments": ""})
            entry["name"] += delta.function.name or ""
            entry["arguments"] += delta.function.arguments or ""
        if streamed.finish_reason:
            reasons.append(streamed.finish_reason)
check("tools (streamed): a call with complete arguments", reasons == ["tool_calls"] and len(streamed_calls) >= 1
      and all(c["id"] and json.loads(c["arguments"]) is not None for c in streamed_calls.values()), f"{reasons} {streamed_calls}")

# Clients that go away mid-stream free their sequences: both of the
# server's two sequences are busy with long answers, both clients leave after
# a few pieces, and the next request is answered at once instead of waiting
# for those answers to finish.
import threading  # noqa: E402
import time  # noqa: E402


def leave_early():
    stream = client.chat.completions.create(
        model=model_name, messages=[{"role": "user", "content": "Write a very long story about a lighthouse keeper."}],
        max_tokens=900, temperature=0.8, seed=7, stream=True,
    )
    for index, _ in enumerate(stream):
        if index >= 3:
            break
    stream.close()


leavers = [threading.Thread(target=leave_early) for _ in range(2)]
for leaver in leavers:
    leaver.start()
for leaver in leavers:
    leaver.join()
start = time.time()
answers_normally("two clients left mid-stream")
check("sequences freed by clients that left are served at once", time.time() - start < 4, f"{time.time() - start:.1f} s")

models = client.models.list()
check("models: the served model", [m.id for m in models.data] == [model_name], str(models.data))

# Errors, each in OpenAI's shape, each followed by a normal answer.
def expect_error(name, exception, call, param=None):
    try:
        call()
        check(name, False, "no error")
    except exception as error:
        body = error.body if isinstance(error.body, dict) else {}
        ok = isinstance(body.get("message"), str) and body.get("type") is not None
        if param is not None:
            ok = ok and body.get("param") == param
        check(name, ok, json.dumps(body))
    except Exception as error:  # noqa: BLE001
        check(name, False, f"{type(error).__name__}: {error}")


wrong_key = openai.OpenAI(base_url=base_url, api_key="wrong", max_retries=0)
expect_error("a wrong key is 401", openai.AuthenticationError,
             lambda: wrong_key.chat.completions.create(model=model_name, messages=[{"role": "user", "content": "Hi"}]))
expect_error("n = 3 is 400 naming n", openai.BadRequestError,
             lambda: client.chat.completions.create(model=model_name, n=3, messages=[{"role": "user", "content": "Hi"}]), param="n")
expect_error("an unknown role is 400", openai.BadRequestError,
             lambda: client.chat.completions.create(model=model_name, messages=[{"role": "robot", "content": "Hi"}]), param="messages[0].role")
expect_error("a model the server does not serve is 404", openai.NotFoundError,
             lambda: client.chat.completions.create(model="gpt-9", messages=[{"role": "user", "content": "Hi"}]), param="model")
expect_error("a schema it cannot enforce is 400 before decoding", openai.BadRequestError,
             lambda: client.chat.completions.create(
                 model=model_name, messages=[{"role": "user", "content": "Hi"}],
                 response_format={"type": "json_schema", "json_schema": {"name": "x", "schema": {
                     "type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}, "uniqueItems": True}}}}}),
             param="response_format.json_schema.schema")
expect_error("temperature 7 is 400", openai.BadRequestError,
             lambda: client.chat.completions.create(model=model_name, temperature=7, messages=[{"role": "user", "content": "Hi"}]),
             param="temperature")
answers_normally("the client's errors")

status, _, body = raw("POST", "/chat/completions", '{"messages": [')
check("malformed JSON is 400", status == 400 and body["error"]["type"] == "invalid_request_error", f"{status} {body}")
line = oversized(2 << 20)
check("a body over the limit is 413", " 413 " in line, line)
status, _, body = raw("POST", "/chat/completions", '{"messages": "Hi"}')
check("messages of the wrong type is 400", status == 400 and body["error"]["param"] == "messages", f"{status} {body}")
# More malformed requests, each a 400 naming what is wrong.
USER = {"role": "user", "content": "Hi"}
for name, payload, param in [
    ("empty messages", {"messages": []}, "messages"),
    ("the last message from the assistant", {"messages": [USER, {"role": "assistant", "content": "Hello"}]}, "messages[1].role"),
    ("content of the wrong type", {"messages": [{"role": "user", "content": 42}]}, "messages[0].content"),
    ("an image part", {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "http://x/y.png"}}]}]}, "messages[0].content[0].type"),
    ("a tool of another type", {"messages": [USER], "tools": [{"type": "retrieval"}]}, "tools[0].type"),
    ("a tool name with spaces", {"messages": [USER], "tools": [{"type": "function", "function": {"name": "get weather"}}]}, "tools[0].function.name"),
    ("a tool schema it cannot enforce", {"messages": [USER], "tools": [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}, "uniqueItems": True}}}}}]},
     "tools[0].function.parameters"),
    ("tool_choice naming a tool not given", {"messages": [USER], "tools": [TIME], "tool_choice": {"type": "function", "function": {"name": "nope"}}},
     "tool_choice.function.name"),
    ("tool_choice without tools", {"messages": [USER], "tool_choice": "required"}, "tool_choice"),
    ("a tool call without its output", {"messages": [USER, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "get_time", "arguments": "{}"}}]}, USER], "tools": [TIME]}, "messages[2].role"),
    ("a tool output answering no call", {"messages": [USER, {"role": "tool", "tool_call_id": "call_9", "content": "12:00"}]},
     "messages[1].tool_call_id"),
    ("tool call arguments that are not JSON", {"messages": [USER, {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "get_time", "arguments": "{time"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "12:00"}]},
     "messages[1].tool_calls[0].function.arguments"),
    ("max_tokens 0", {"messages": [USER], "max_tokens": 0}, "max_tokens"),
    ("max_tokens of the wrong type", {"messages": [USER], "max_tokens": "many"}, "max_tokens"),
    ("top_p 1.5", {"messages": [USER], "top_p": 1.5}, "top_p"),
    ("stream_options without stream", {"messages": [USER], "stream_options": {"include_usage": True}}, "stream_options"),
    ("an unknown response_format type", {"messages": [USER], "response_format": {"type": "xml"}}, "response_format.type"),
    ("json_schema without its schema", {"messages": [USER], "response_format": {"type": "json_schema", "json_schema": {"name": "x"}}}, "response_format.json_schema.schema"),
    ("an unknown field", {"messages": [USER], "temperatur": 0.5}, "temperatur"),
    ("five stop sequences", {"messages": [USER], "stop": ["a", "b", "c", "d", "e"]}, "stop"),
    ("a message without a role", {"messages": [{"content": "Hi"}]}, "messages[0].role"),
    ("a reference outside the schema", {"messages": [USER], "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {"$ref": "https://example.com/s.json"}}}}, "response_format.json_schema.schema"),
]:
    status, _, body = raw("POST", "/chat/completions", json.dumps(payload))
    error = body.get("error", {}) if isinstance(body, dict) else {}
    check(f"{name} is 400 naming {param}", status == 400 and error.get("param") == param and error.get("message"), f"{status} {body}")
status, _, body = raw("POST", "/chat/completions", "[1, 2]")
check("a body that is not an object is 400", status == 400 and "error" in body, f"{status} {body}")
# Bytes that are not UTF-8 (JSON is UTF-8): a 400, not a question with
# replacement characters the client never asked.
for path in ["/chat/completions", "/responses"]:
    status, _, body = raw("POST", path, b'{"model": "x", "messages": [{"role": "user", "content": "caf\xe9 \xff"}], "input": "\xc3("}')
    check(f"a body that is not UTF-8 is 400 ({path})", status == 400 and body["error"]["code"] == "invalid_encoding", f"{status} {body}")
line = oversized(10 << 20)
check("a 10 MiB body is 413", " 413 " in line, line)
answers_normally("the malformed requests")

# A client that sends half a request and then nothing is disconnected
# (the server's idle timeout), and others are served meanwhile.
import socket, time  # noqa: E402
host, port = base_url.split("//")[1].split("/")[0].split(":")
slow = socket.create_connection((host, int(port)), timeout=30)
slow.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
sent_at = time.time()
answers_normally("a slow client opened a request")
closed = False
try:
    while slow.recv(4096):  # whatever it says, the connection must end
        pass
    closed = True
except OSError:
    closed = True
check("a slow client is disconnected by the idle timeout", closed and time.time() - sent_at < 25, f"after {time.time() - sent_at:.1f} s")
answers_normally("the slow client")

status, headers, body = raw("GET", "/nowhere")
check("an unknown path is 404 with an error body", status == 404 and "error" in body, f"{status} {body}")
generated = {name.lower(): value for name, value in headers.items()}.get("x-request-id", "")
check("every response has a generated x-request-id", generated.startswith("req_") and len(generated) == 36, str(headers))
status, headers, body = raw("GET", "/models", headers={"X-Request-ID": "client-id-42"})
kept = {name.lower(): value for name, value in headers.items()}.get("x-request-id")
check("a client's x-request-id is kept", status == 200 and kept == "client-id-42", str(headers))
status, _, body = raw("GET", "/models", headers={"Authorization": ""})
check("a missing key is 401", status == 401 and body["error"]["code"] == "invalid_api_key", f"{status} {body}")
answers_normally("the raw errors")

finish()
