#!/usr/bin/env python3
"""MaskBench worker for the engines compared with ours (see Sources/fm-bench/MaskBench.swift).

Usage: maskbench_harness.py ENGINE VOCABULARY_FILE
  ENGINE: llguidance | xgrammar | validate

Reads one job per line on standard input (JSON: id, schema (JSON text), tests (token ids
per instance), texts (the rewritten instances)) and writes one result per line:
  {"id", "compiled", "error", "compile_ns", "accepted": [bool per test], "mask_ns": [int per mask]}
The vocabulary file (written by fm-bench) is the model's own token bytes, one token per line
in hex, after a first line "eos ID ID...": no tokenizer is fetched from anywhere.
"validate" judges each rewritten instance with the jsonschema package instead (accepted =
valid), which decides which instances are applicable.
"""
import json
import sys
import time


def read_vocabulary(path):
    with open(path) as f:
        lines = f.read().split("\n")
    eos = [int(x) for x in lines[0].split()[1:]]
    tokens = [bytes.fromhex(line) for line in lines[1:]]
    if tokens and tokens[-1] == b"" and len(lines) > 1 and lines[-1] == "":
        tokens.pop()
    return tokens, eos


def greedy(tokens):
    """Greedy longest-match tokenization (the engines only use it for incidental text)."""
    index = {}
    longest = 1
    for token_id, data in enumerate(tokens):
        if data and data not in index:
            index[data] = token_id
            longest = max(longest, len(data))

    def tokenize(data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        result, start = [], 0
        while start < len(data):
            for end in range(min(len(data), start + longest), start, -1):
                found = index.get(data[start:end])
                if found is not None:
                    result.append(found)
                    start = end
                    break
            else:
                start += 1
        return result

    return tokenize


class LLGuidance:
    def __init__(self, tokens, eos):
        import llguidance

        self.llguidance = llguidance
        special = [i for i, t in enumerate(tokens) if not t]
        # Tokens without bytes (control tokens) get a name llguidance marks special.
        named = [t if t else b"\xff[CONTROL_%d]" % i for i, t in enumerate(tokens)]

        class Wrapper:
            pass

        wrapper = Wrapper()
        wrapper.eos_token_id = eos[0]
        wrapper.bos_token_id = None
        wrapper.tokens = named
        wrapper.special_token_ids = special
        wrapper.is_tokenizer_wrapper = True
        tokenize = greedy(tokens)
        wrapper.__class__.__call__ = lambda self, s: tokenize(s)
        self.tokenizer = llguidance.LLTokenizer(wrapper, n_vocab=len(tokens), eos_token=eos)
        self.options = {"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"}
        self.eos = eos

    def compile(self, schema):
        grammar = self.llguidance.LLMatcher.grammar_from_json_schema(schema, defaults=self.options)
        matcher = self.llguidance.LLMatcher(self.tokenizer, grammar, log_level=0)
        if matcher.is_error():
            raise ValueError(matcher.get_error())
        return grammar, matcher

    def run(self, compiled, tokens, times):
        grammar, first = compiled
        matcher = first.deep_copy()
        for token in tokens + [None]:
            start = time.perf_counter_ns()
            mask = matcher.compute_bitmask()
            times.append(time.perf_counter_ns() - start)
            if token is None:
                return any(mask[e // 8] >> (e % 8) & 1 for e in self.eos)
            if not (mask[token // 8] >> (token % 8)) & 1:
                return False
            if not matcher.consume_token(token) or matcher.is_error():
                return False
        return False


class XGrammar:
    def __init__(self, tokens, eos):
        import xgrammar

        self.xgrammar = xgrammar
        info = xgrammar.TokenizerInfo(
            [t if t else b"" for t in tokens], vocab_type=xgrammar.VocabType.RAW, vocab_size=len(tokens), stop_token_ids=eos
        )
        self.compiler = xgrammar.GrammarCompiler(info, max_threads=1, cache_enabled=False)
        self.bitmask = xgrammar.allocate_token_bitmask(1, len(tokens))
        self.eos = eos

    def compile(self, schema):
        return self.compiler.compile_json_schema(schema, any_whitespace=False, separators=(",", ":"))

    def run(self, compiled, tokens, times):
        matcher = self.xgrammar.GrammarMatcher(compiled)
        words = self.bitmask[0]
        for token in tokens + [None]:
            start = time.perf_counter_ns()
            matcher.fill_next_token_bitmask(self.bitmask)
            times.append(time.perf_counter_ns() - start)
            if token is None:
                return any(int(words[e // 32]) >> (e % 32) & 1 for e in self.eos)
            if not int(words[token // 32]) >> (token % 32) & 1:
                return False
            if not matcher.accept_token(token):
                return False
        return False


class Validate:
    def __init__(self, tokens, eos):
        import jsonschema

        self.jsonschema = jsonschema

    def compile(self, schema):
        schema = json.loads(schema)
        cls = self.jsonschema.validators.validator_for(schema)
        return cls(schema)

    def run(self, validator, text, times):
        return validator.is_valid(json.loads(text))


def main():
    engine_name, vocabulary = sys.argv[1], sys.argv[2]
    tokens, eos = read_vocabulary(vocabulary)
    engine = {"llguidance": LLGuidance, "xgrammar": XGrammar, "validate": Validate}[engine_name](tokens, eos)
    for line in sys.stdin:
        job = json.loads(line)
        reply = {"id": job["id"], "compiled": False, "accepted": [], "mask_ns": []}
        start = time.perf_counter_ns()
        try:
            compiled = engine.compile(job["schema"])
            reply["compiled"] = True
        except BaseException as error:  # noqa: BLE001 - any failure to compile is a compile error
            reply["error"] = str(error)[:300]
        reply["compile_ns"] = time.perf_counter_ns() - start
        if reply["compiled"]:
            inputs = job["texts"] if engine_name == "validate" else job["tests"]
            for test in inputs:
                try:
                    reply["accepted"].append(bool(engine.run(compiled, test, reply["mask_ns"])))
                except BaseException:  # noqa: BLE001 - an engine error on an instance is a refusal
                    reply["accepted"].append(False)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
