// Greedy decoding's time per token two ways, on one llama.cpp build and model:
// the logits copied to the host and the highest picked there (what the
// engine does: LlamaSampler.argmax over llama_get_logits_ith), against a
// greedy sampler in llama.cpp's graph (its EXPERIMENTAL backend sampling,
// llama_context_params.samplers), which leaves the logits where they were
// computed and returns only the token.
//
// Exists to tell, on a GPU, whether backend sampling would pay for free-text
// greedy answers (on the 2-core CPU machine it does not: 1.68-1.72 against
// 1.61-1.67 ms a step on the tiny shape). Both ways must pick the same
// tokens; the first ones are printed.
//
//   cc -O2 -o backend_sampling backend_sampling.c -I$LLAMA_PREFIX/include -L$LLAMA_PREFIX/lib -lllama
//   LD_LIBRARY_PATH=$LLAMA_PREFIX/lib ./backend_sampling MODEL.gguf THREADS
#include <llama.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int ascending(const void * a, const void * b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static void quiet(enum ggml_log_level level, const char * text, void * data) {
    (void) level; (void) text; (void) data;
}

// Median µs per 1-token step after a 100-token prompt; the first tokens in `first`.
static double measure(struct llama_model * model, int threads, int on_backend, llama_token first[4]) {
    struct llama_context_params params = llama_context_default_params();
    params.n_ctx = 2048;
    params.n_batch = params.n_ubatch = 512;
    params.n_threads = params.n_threads_batch = threads;
    params.no_perf = 1;
    struct llama_sampler * chain = NULL;
    struct llama_sampler_seq_config config;
    if (on_backend) {
        chain = llama_sampler_chain_init(llama_sampler_chain_default_params());
        llama_sampler_chain_add(chain, llama_sampler_init_greedy());
        config.seq_id = 0;
        config.sampler = chain;
        params.samplers = &config;
        params.n_samplers = 1;
    }
    struct llama_context * context = llama_init_from_model(model, params);
    if (!context) { fprintf(stderr, "no context\n"); exit(1); }
    const int vocabulary = llama_vocab_n_tokens(llama_model_get_vocab(model));
    llama_batch batch = llama_batch_init(512, 0, 1);
    const int depth = 100, steps = 300;
    for (int i = 0; i < depth; i++) {
        batch.token[i] = (i * 7919) % vocabulary;
        batch.pos[i] = i;
        batch.n_seq_id[i] = 1;
        batch.seq_id[i][0] = 0;
        batch.logits[i] = i == depth - 1;
    }
    batch.n_tokens = depth;
    if (llama_decode(context, batch)) { fprintf(stderr, "prompt failed\n"); exit(1); }
    double * times = malloc(sizeof(double) * steps);
    llama_token token = 42;
    for (int step = 0; step < steps; step++) {
        const double began = now();
        batch.token[0] = token;
        batch.pos[0] = depth + step;
        batch.n_seq_id[0] = 1;
        batch.seq_id[0][0] = 0;
        batch.logits[0] = 1;
        batch.n_tokens = 1;
        if (llama_decode(context, batch)) { fprintf(stderr, "decode failed\n"); exit(1); }
        if (on_backend) {
            token = llama_get_sampled_token_ith(context, 0);
        } else {
            const float * logits = llama_get_logits_ith(context, 0);
            int best = 0;
            for (int i = 1; i < vocabulary; i++) if (logits[i] > logits[best]) best = i;
            token = best;
        }
        times[step] = now() - began;
        if (step < 4) first[step] = token;
    }
    qsort(times, steps, sizeof(double), ascending);
    const double median = times[steps / 2] * 1e6;
    free(times);
    llama_batch_free(batch);
    llama_free(context);
    if (chain) llama_sampler_free(chain);
    return median;
}

int main(int argc, char ** argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s MODEL.gguf THREADS\n", argv[0]); return 2; }
    llama_log_set(quiet, NULL);
    llama_backend_init();
    struct llama_model * model = llama_model_load_from_file(argv[1], llama_model_default_params());
    if (!model) { fprintf(stderr, "cannot load %s\n", argv[1]); return 1; }
    const int threads = atoi(argv[2]);
    for (int round = 0; round < 2; round++) {
        llama_token host[4], backend[4];
        const double on_host = measure(model, threads, 0, host);
        const double on_backend = measure(model, threads, 1, backend);
        printf("| round %d | %.1f µs (logits to the host, argmax there) | %.1f µs (greedy sampler in the graph) | %.3f | first tokens %s |\n",
               round + 1, on_host, on_backend, on_host / on_backend,
               host[0] == backend[0] && host[1] == backend[1] && host[2] == backend[2] && host[3] == backend[3] ? "equal" : "DIFFER");
    }
    llama_model_free(model);
    return 0;
}
