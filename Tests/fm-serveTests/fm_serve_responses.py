"""fm serve's Responses API (`POST /v1/responses`) as the official `openai`
client uses it: text, streamed events, `responses.parse` with a pydantic
model, JSON mode, a function-tool round trip, top_logprobs, and the 400s of
a stateless server. Started by FMServeTests.swift against a real `fm serve`.

Usage: python fm_serve_responses.py BASE_URL API_KEY MODEL_NAME

Prints `ok: NAME` for each check that passed and `FAILED: NAME: why` for
each that did not; exits 1 if any failed.
"""
import json
import sys

import openai
import pydantic

from fm_serve_checks import check, finish

base_url, api_key, model_name = sys.argv[1:4]
client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=120)

# Text, with instructions and usage.
reply = client.responses.create(
    model=model_name, instructions="You answer in a few words.", input="What is the capital of France?",
    max_output_tokens=16, temperature=0,
)
check("text: an answer", reply.output_text.strip() != "", repr(reply.output_text))
check("text: a response object", reply.object == "response" and reply.id.startswith("resp_") and reply.model == model_name,
      f"{reply.object} {reply.id} {reply.model}")
check("text: status", reply.status in ("completed", "incomplete"), reply.status)
check("text: one assistant message", [item.type for item in reply.output] == ["message"] and reply.output[0].role == "assistant",
      str(reply.output))
usage = reply.usage
check("text: usage adds up", usage.input_tokens > 0 and 0 < usage.output_tokens <= 16
      and usage.total_tokens == usage.input_tokens + usage.output_tokens, str(usage))
check("text: instructions echoed", reply.instructions == "You answer in a few words.", repr(reply.instructions))

# Cut at max_output_tokens: incomplete, saying why.
reply = client.responses.create(model=model_name, input="Write a long story about a cat.", max_output_tokens=5, temperature=0)
check("max_output_tokens: incomplete", reply.status == "incomplete" and reply.incomplete_details.reason == "max_output_tokens"
      and reply.usage.output_tokens == 5, f"{reply.status} {reply.incomplete_details} {reply.usage}")

# Input as items: an earlier turn, content parts.
reply = client.responses.create(
    model=model_name, max_output_tokens=8, temperature=0,
    input=[{"role": "user", "content": "My name is Ada."},
           {"role": "assistant", "content": [{"type": "output_text", "text": "Hello Ada."}]},
           {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What is my name?"}]}],
)
check("items: a conversation is answered", reply.output_text != "", repr(reply.output_text))

# Streamed: OpenAI's event names, numbered in order, the deltas adding up to the answer.
events = list(client.responses.create(
    model=model_name, input="Count from one to five.", max_output_tokens=24, temperature=0, stream=True,
))
types = [event.type for event in events]
check("stream: created, in progress, then the message", types[:4] == [
    "response.created", "response.in_progress", "response.output_item.added", "response.content_part.added"], str(types[:4]))
check("stream: ends completed", types[-1] in ("response.completed", "response.incomplete"), types[-1])
check("stream: numbered in order", [event.sequence_number for event in events] == list(range(len(events))),
      str([event.sequence_number for event in events]))
deltas = [event.delta for event in events if event.type == "response.output_text.delta"]
final = events[-1].response
check("stream: text in several deltas, adding up to the answer", len(deltas) > 1 and "".join(deltas) == final.output_text,
      f"{deltas!r} vs {final.output_text!r}")
done = [event for event in events if event.type == "response.output_text.done"]
check("stream: the text's done event", len(done) == 1 and done[0].text == final.output_text, str(done))
check("stream: usage on the final response", final.usage is not None and final.usage.output_tokens > 0, str(final.usage))


# Structured output: responses.parse with a pydantic model (strict json_schema, enforced).
class Capital(pydantic.BaseModel):
    country: str
    city: str


parsed = client.responses.parse(
    model=model_name, input="France and its capital.", text_format=Capital, max_output_tokens=64, temperature=0,
)
check("parse: a pydantic model", isinstance(parsed.output_parsed, Capital) and parsed.output_parsed.country != "",
      repr(parsed.output_parsed))

# JSON mode.
reply = client.responses.create(
    model=model_name, input="Describe a cat as JSON.", text={"format": {"type": "json_object"}}, max_output_tokens=48,
    temperature=0,
)
try:
    check("json_object: an object", isinstance(json.loads(reply.output_text), dict), reply.output_text)
except ValueError as error:
    check("json_object: an object", False, f"{error}: {reply.output_text!r}")

# A function tool, round trip: the call, the client runs it, the answer from its output.
WEATHER = {
    "type": "function", "name": "get_weather", "description": "The current weather in a city.", "strict": True,
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                   "additionalProperties": False},
}
question = {"role": "user", "content": "What is the weather in Paris?"}
reply = client.responses.create(
    model=model_name, input=[question], tools=[WEATHER], tool_choice="required", max_output_tokens=48, temperature=0,
)
calls = [item for item in reply.output if item.type == "function_call"]
check("tools: a function_call item", len(calls) >= 1 and calls[0].name == "get_weather" and calls[0].call_id.startswith("call_"),
      str(reply.output))
if calls:
    try:
        arguments = json.loads(calls[0].arguments)
        check("tools: arguments follow the schema", isinstance(arguments.get("city"), str) and set(arguments) == {"city"},
              calls[0].arguments)
    except ValueError as error:
        check("tools: arguments follow the schema", False, f"{error}: {calls[0].arguments!r}")
    answer = client.responses.create(
        model=model_name, tools=[WEATHER], max_output_tokens=32, temperature=0,
        input=[question, *reply.output, *[{"type": "function_call_output", "call_id": call.call_id, "output": "22 C and sunny"}
                                         for call in calls]],
    )
    check("tools: the answer after the output is text", answer.output_text != "" and
          all(item.type == "message" for item in answer.output), str(answer.output))

# tool_choice naming the function, streamed: the call's argument events.
events = list(client.responses.create(
    model=model_name, input=[question], tools=[WEATHER], tool_choice={"type": "function", "name": "get_weather"},
    max_output_tokens=48, temperature=0, stream=True,
))
types = [event.type for event in events]
arguments_done = [event for event in events if event.type == "response.function_call_arguments.done"]
check("tools (streamed): the call's argument events", "response.function_call_arguments.delta" in types
      and len(arguments_done) == 1 and json.loads(arguments_done[0].arguments).get("city"), str(types))
items = [event.item for event in events if event.type == "response.output_item.done"]
check("tools (streamed): a function_call item done", any(item.type == "function_call" for item in items), str(items))

# top_logprobs with include ["message.output_text.logprobs"]: the output_text
# part's tokens, each with its log-probability and the three most likely
# tokens at its place (under greedy the chosen one first), spelling the text;
# streamed, each delta carries its tokens and the done event all of them.
kwargs = dict(model=model_name, input="Name a colour.", max_output_tokens=8, temperature=0, top_logprobs=3,
              include=["message.output_text.logprobs"])
for stream_it in (False, True):
    name = f"logprobs{' (streamed)' if stream_it else ''}"
    if stream_it:
        events = list(client.responses.create(stream=True, **kwargs))
        deltas = [event for event in events if event.type == "response.output_text.delta"]
        done = [event for event in events if event.type == "response.output_text.done"]
        text, tokens = "".join(event.delta for event in deltas), [t for event in deltas for t in event.logprobs]
        check(f"{name}: the done event has every token", len(done) == 1
              and [t.token for t in done[0].logprobs] == [t.token for t in tokens], str(done))
        part = events[-1].response.output[0].content[0]
    else:
        part = client.responses.create(**kwargs).output[0].content[0]
        text, tokens = part.text, part.logprobs
    check(f"{name}: the part's tokens spell its text", len(part.logprobs) >= 1
          and "".join(t.token for t in part.logprobs) == part.text == text, f"{text!r} {[t.token for t in part.logprobs]}")
    check(f"{name}: one entry a token, spelling the text", "".join(t.token for t in tokens) == text, str(tokens))
    check(f"{name}: log-probabilities, the chosen token the most likely of three",
          all(t.logprob <= 0 and len(t.top_logprobs) == 3 and t.top_logprobs[0].token == t.token
              and t.top_logprobs[0].logprob >= t.top_logprobs[1].logprob >= t.top_logprobs[2].logprob for t in tokens)
          and all(bytes(t.bytes).decode("utf-8", "replace") == t.token for t in part.logprobs),
          str([(t.token, t.logprob, [(a.token, a.logprob) for a in t.top_logprobs]) for t in tokens]))
reply = client.responses.create(model=model_name, input="Name a colour.", max_output_tokens=8, temperature=0, top_logprobs=3)
check("logprobs: none without include, as OpenAI's", not getattr(reply.output[0].content[0], "logprobs", None)
      and reply.top_logprobs == 3, str(reply.output[0].content[0]))


# The 400s: each names what is wrong.
def refused(name, param, status=400, **arguments):
    try:
        client.responses.create(model=arguments.pop("model", model_name), **arguments)
        check(name, False, "no error")
    except openai.APIStatusError as error:
        body = error.body if isinstance(error.body, dict) else {}
        check(name, error.status_code == status and body.get("param") == param and body.get("message"),
              f"{error.status_code} {error.body}")


refused("previous_response_id is a clear 400", "previous_response_id", input="Hi", previous_response_id="resp_123")
refused("an unknown model is 404", "model", status=404, model="nope", input="Hi")
refused("empty input", "input", input=[])
refused("an output answering no call", "input[1].call_id",
        input=[question, {"type": "function_call_output", "call_id": "call_9", "output": "x"}])
refused("a call without its output", "input",
        input=[question, {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{}"}], tools=[WEATHER])
refused("an image part", "input[0].content[0].type",
        input=[{"role": "user", "content": [{"type": "input_image", "image_url": "http://x/y.png"}]}])
refused("an unknown text.format type", "text.format.type", input="Hi", text={"format": {"type": "xml"}})
refused("a schema it cannot enforce", "text.format.schema", input="Hi", text={"format": {
    "type": "json_schema", "name": "x", "schema": {"type": "array", "items": {"type": "object"}, "uniqueItems": True}}})
refused("tool_choice without tools", "tool_choice", input="Hi", tool_choice="required")
refused("a built-in tool", "tools[0].type", input="Hi", tools=[{"type": "web_search"}])
refused("max_output_tokens 0", "max_output_tokens", input="Hi", max_output_tokens=0)
refused("an unknown field", "temperatur", input="Hi", extra_body={"temperatur": 1})
refused("top_logprobs over 20", "top_logprobs", input="Hi", top_logprobs=21, include=["message.output_text.logprobs"])

finish()
