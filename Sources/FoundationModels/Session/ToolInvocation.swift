/// Running the tools a model called, for the session's tool loop.
extension LanguageModelSession {
    /// Turns the accumulated calls into transcript tool calls, rejecting a
    /// call to a tool the request did not enable or with arguments that are
    /// not a complete JSON value.
    func resolveToolCalls(
        _ turn: TurnAccumulator,
        enabled: [Transcript.ToolDefinition]
    ) throws -> Transcript.ToolCalls {
        let arguments = try turn.toolCalls.map { call in
            guard enabled.contains(where: { $0.name == call.name }) else {
                throw GeneratedContent.ParsingError(
                    rawContent: call.arguments,
                    debugDescription:
                        "The model called \"\(call.name)\", which is not one of the session's enabled tools (\(enabled.map(\.name).joined(separator: ", ")))."
                )
            }
            let arguments: GeneratedContent
            do {
                arguments = try GeneratedContent(json: call.arguments.isEmpty ? "{}" : call.arguments)
            } catch {
                throw GeneratedContent.ParsingError(
                    rawContent: call.arguments,
                    underlyingError: error,
                    debugDescription: "The arguments of the call to \"\(call.name)\" are not valid JSON: \(error)"
                )
            }
            guard arguments.isComplete else {
                throw GeneratedContent.ParsingError(
                    rawContent: call.arguments,
                    debugDescription: "The arguments of the call to \"\(call.name)\" are incomplete: \(call.arguments)"
                )
            }
            return arguments
        }
        return turn.transcriptToolCalls(arguments: arguments)
    }

    /// Calls every tool concurrently, as child tasks of the request, so
    /// cancelling the request cancels them. Outputs keep the calls' order.
    /// The first tool that throws ends the request with a ``ToolCallError``.
    func invokeTools(_ calls: [Transcript.ToolCall], tools: [any Tool]) async throws -> [Transcript.ToolOutput] {
        try await withThrowingTaskGroup(of: (Int, Transcript.ToolOutput).self) { group in
            for (index, call) in calls.enumerated() {
                // `resolveToolCalls` admitted only enabled tools, all of which are in `tools`.
                guard let tool = tools.first(where: { $0.name == call.toolName }) else { continue }
                group.addTask {
                    let segments = try await Self.invoke(tool, arguments: call.arguments)
                    return (index, Transcript.ToolOutput(id: call.id, toolName: call.toolName, segments: segments))
                }
            }
            var outputs: [(Int, Transcript.ToolOutput)] = []
            for try await output in group {
                outputs.append(output)
            }
            return outputs.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Decodes the arguments and calls one tool, wrapping any failure in a
    /// ``ToolCallError`` that names it.
    private static func invoke<T: Tool>(_ tool: T, arguments: GeneratedContent) async throws -> [Transcript.Segment] {
        do {
            let decoded = try T.Arguments(arguments)
            let output = try await tool.call(arguments: decoded)
            return output.promptRepresentation.segments
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ToolCallError(tool: tool, underlyingError: error)
        }
    }
}
