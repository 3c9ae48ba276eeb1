#!/usr/bin/env python3
"""MaskBench worker for the engines compared with ours (see Sources/fm-bench/MaskBench.swift).

Usage: maskbench_harness.py ENGINE VOCABULARY_FILE [MODEL_GGUF]
  ENGINE: llguidance | llguidance-own | xgrammar | validate

Reads one job per line on standard input (JSON: id, schema (JSON text), tests (token ids
per instance), texts (the rewritten instances), file (the MaskBench file)) and writes one
result per line:
  {"id", "compiled", "error", "compile_ns", "accepted": [bool per test], "mask_ns": [int per mask]}
The vocabulary file (written by fm-bench) is the model's own token bytes, one token per line
in hex, after a first line "eos ID ID...": no tokenizer is fetched from anywhere.

llguidance tokenizes the bytes a grammar forces (a key, a closing quote) with its tokenizer
and allows only that tokenization, so it must have the model's own: it is read from
MODEL_GGUF's metadata (transformers' GGUF loader). Without it, forcing is turned off
(`no_forcing`), so masks alone decide, as for the other engines.

"llguidance-own" runs llguidance under jsonschemabench's published MaskBench protocol
(maskbench/maskbench/runner.py and llg_engine.py) instead of ours: the schema and instances as
the file has them, each instance written by json.dumps(indent=None, ensure_ascii=False) (", "
and ": ") and tokenized by the model's tokenizer, llguidance's default options (flexible
whitespace), every instance applicable, an instance accepted when no token is refused (no
check at its end). Its replies carry "labels" (each file test's published validity).

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


def model_tokenizer(model):
    """The model's own tokenizer, read from its GGUF file's metadata."""
    import os

    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(os.path.dirname(os.path.abspath(model)), gguf_file=os.path.basename(model))


class LLGuidance:
    def __init__(self, tokens, eos, model=None):
        import llguidance
        import llguidance.hf

        self.llguidance = llguidance
        self.eos = eos
        self.options = {"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"}
        if model:
            self.hf = model_tokenizer(model)
            self.tokenizer = llguidance.hf.from_tokenizer(self.hf, n_vocab=len(tokens), eos_token=eos)
            self.forcing = True
            return
        # No tokenizer to force with: llguidance's own tokenization of
        # forced bytes could disagree with the model's, so masks alone decide.
        self.hf = None
        self.forcing = False
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
        # (Called only for forced text, which no_forcing turns off.)
        wrapper.__class__.__call__ = lambda self, s: []
        self.tokenizer = llguidance.LLTokenizer(wrapper, n_vocab=len(tokens), eos_token=eos)

    def compile(self, schema):
        if self.forcing:
            grammar = self.llguidance.LLMatcher.grammar_from_json_schema(schema, defaults=self.options)
        else:
            document = json.loads(schema)
            if isinstance(document, dict):
                document = dict(document, **{"x-guidance": self.options})
            grammar = '%llguidance {"no_forcing": true}\nstart: %json ' + json.dumps(document)
        matcher = self.llguidance.LLMatcher(self.tokenizer, grammar, log_level=0)
        if matcher.is_error():
            raise ValueError(matcher.get_error())
        return grammar, matcher

    def first_mask(self, compiled, times):
        matcher = compiled[1].deep_copy()
        start = time.perf_counter_ns()
        matcher.compute_bitmask()
        times.append(time.perf_counter_ns() - start)

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


class LLGuidanceOwn(LLGuidance):
    """llguidance under jsonschemabench's own MaskBench protocol (see the module's doc)."""

    def __init__(self, tokens, eos, model=None):
        if not model:
            raise SystemExit("llguidance-own needs the model's GGUF file (its tokenizer)")
        super().__init__(tokens, eos, model)

    def load(self, job):
        with open(job["file"], encoding="utf-8") as f:
            self.document = json.load(f)
        return json.dumps(self.document["schema"])

    def compile(self, schema):
        grammar = json.dumps({"grammars": [{"json_schema": self.document["schema"]}]})
        matcher = self.llguidance.LLMatcher(self.tokenizer, grammar, log_level=0)
        if matcher.is_error():
            raise ValueError(matcher.get_error())
        return grammar, matcher

    def tests(self, job):
        return self.document["tests"]

    def run(self, compiled, test, times):
        grammar, first = compiled
        matcher = first.deep_copy()
        instance = json.dumps(test["data"], indent=None, ensure_ascii=False)
        for token in self.hf.encode(instance, add_special_tokens=False):
            start = time.perf_counter_ns()
            mask = matcher.compute_bitmask()
            times.append(time.perf_counter_ns() - start)
            if not (mask[token // 8] >> (token % 8)) & 1:
                return False
            matcher.consume_token(token)
        return True


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

    def first_mask(self, compiled, times):
        matcher = self.xgrammar.GrammarMatcher(compiled)
        start = time.perf_counter_ns()
        matcher.fill_next_token_bitmask(self.bitmask)
        times.append(time.perf_counter_ns() - start)

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
    model = sys.argv[3] if len(sys.argv) > 3 else None
    tokens, eos = read_vocabulary(vocabulary)
    engines = {"llguidance": LLGuidance, "llguidance-own": LLGuidanceOwn, "xgrammar": XGrammar, "validate": Validate}
    engine = engines[engine_name](tokens, eos, model) if engine_name.startswith("llguidance") else engines[engine_name](tokens, eos)
    own = engine_name == "llguidance-own"
    # Loaded: the driver starts each schema's time limit from here on.
    sys.stdout.write('{"ready":true}\n')
    sys.stdout.flush()
    for line in sys.stdin:
        job = json.loads(line)
        reply = {"id": job["id"], "compiled": False, "accepted": [], "mask_ns": []}
        schema = engine.load(job) if own else job["schema"]
        start = time.perf_counter_ns()
        try:
            compiled = engine.compile(schema)
            reply["compiled"] = True
        except BaseException as error:  # noqa: BLE001 - any failure to compile is a compile error
            reply["error"] = str(error)[:300]
        reply["compile_ns"] = time.perf_counter_ns() - start
        if reply["compiled"] and engine_name != "validate":
            first = []
            engine.first_mask(compiled, first)
            reply["first_mask_ns"] = first[0]
        if own:
            reply["labels"] = [bool(test["valid"]) for test in engine.tests(job)]
        if reply["compiled"]:
            if own:
                inputs = engine.tests(job)
            else:
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
