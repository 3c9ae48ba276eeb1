import Foundation

/// What one request runs with: the model, the tools, the instructions, and
/// the adjustments a dynamic profile makes (options, history transform,
/// hooks, error policy).
///
/// A session made with a model and instructions has one setup for its whole
/// life; a session made with a dynamic profile or dynamic instructions
/// evaluates them into a new setup before every request, so a change of a
/// session property shows in the next request.
struct RequestSetup: Sendable {
    var backend: ModelBackend
    var tools: [any Tool]
    /// The tools' definitions (with their argument schemas), built once per
    /// evaluation rather than on every round.
    var toolDefinitions: [Transcript.ToolDefinition]
    /// The instructions entry the request is sent with, replacing the one
    /// the transcript starts with; `nil` keeps the transcript's.
    var instructions: Transcript.Instructions?
    var errorPolicy: TranscriptErrorHandlingPolicy
    var adjustments = Adjustments()
    var hooks = Hooks()

    init(
        backend: ModelBackend, tools: [any Tool], instructions: Transcript.Instructions? = nil,
        errorPolicy: TranscriptErrorHandlingPolicy = .revertTranscript
    ) {
        self.backend = backend
        self.tools = tools
        self.toolDefinitions = tools.map { Transcript.ToolDefinition(tool: $0) }
        self.instructions = instructions
        self.errorPolicy = errorPolicy
    }

    /// Option values a profile sets; a request's own non-`nil` options win.
    struct Adjustments: Sendable {
        var samplingMode: GenerationOptions.SamplingMode?
        var temperature: Double?
        var maximumResponseTokens: Int?
        var toolCallingMode: GenerationOptions.ToolCallingMode?
        var reasoningLevel: ContextOptions.ReasoningLevel?
        /// Applied to the history (everything after the instructions)
        /// before it is sent; the transcript itself is not changed.
        var historyTransforms: [@Sendable ([Transcript.Entry]) -> [Transcript.Entry]] = []
    }

    /// The profile's hooks, called on the request's task in the order the
    /// modifiers were applied.
    struct Hooks: Sendable {
        var onPrompt: [@Sendable (Transcript.Prompt) async throws -> Void] = []
        var onResponse: [@Sendable (Transcript.Response) async throws -> Void] = []
        var onReasoning: [@Sendable (Transcript.Reasoning) async throws -> Void] = []
        var onToolCall: [@Sendable (Transcript.ToolCall) async throws -> Void] = []
        var onToolOutput: [@Sendable (Transcript.ToolCall, Transcript.ToolOutput) async throws -> Void] = []

        func prompt(_ prompt: Transcript.Prompt) async throws { for hook in onPrompt { try await hook(prompt) } }
        func response(_ response: Transcript.Response) async throws { for hook in onResponse { try await hook(response) } }
        func reasoning(_ reasoning: Transcript.Reasoning) async throws { for hook in onReasoning { try await hook(reasoning) } }
        func toolCall(_ call: Transcript.ToolCall) async throws { for hook in onToolCall { try await hook(call) } }
        func toolOutput(_ call: Transcript.ToolCall, _ output: Transcript.ToolOutput) async throws {
            for hook in onToolOutput { try await hook(call, output) }
        }
    }

    func adjusted(_ options: GenerationOptions) -> GenerationOptions {
        var options = options
        options.samplingMode = options.samplingMode ?? adjustments.samplingMode
        options.temperature = options.temperature ?? adjustments.temperature
        options.maximumResponseTokens = options.maximumResponseTokens ?? adjustments.maximumResponseTokens
        options.toolCallingMode = options.toolCallingMode ?? adjustments.toolCallingMode
        return options
    }

    func adjusted(_ options: ContextOptions) -> ContextOptions {
        var options = options
        options.reasoningLevel = options.reasoningLevel ?? adjustments.reasoningLevel
        return options
    }

    /// The transcript the executor sees: the instructions (this setup's,
    /// or the history's own), the history as the profile transforms it,
    /// and the request's entries so far.
    func transcript(history: [Transcript.Entry], added: [Transcript.Entry]) -> Transcript {
        var (leading, rest) = Transcript.splitInstructions(history)
        if let instructions { leading = .instructions(instructions) }
        for transform in adjustments.historyTransforms { rest = transform(rest) }
        return Transcript(entries: (leading.map { [$0] } ?? []) + rest + added)
    }
}

extension Transcript {
    /// The leading instructions entry, if any, and the entries after it.
    static func splitInstructions(_ entries: [Entry]) -> (Entry?, [Entry]) {
        if let first = entries.first, case .instructions = first {
            return (first, Array(entries.dropFirst()))
        }
        return (nil, entries)
    }
}
