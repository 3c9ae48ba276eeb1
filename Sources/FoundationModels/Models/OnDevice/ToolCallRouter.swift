import GuidedGeneration

/// Sorts the text of one model turn, as it is generated, into what the
/// session sees: answer text, streamed as it comes, or a block of tool
/// calls, reported once the block is complete.
///
/// Exists because a turn with tools starts undecided: the grammar lets the
/// model open a call block (`<tool_call>[…]</tool_call>`) or answer, and the
/// first bytes decide. Text that could still be the start of the block's
/// marker is held back; as soon as it cannot, it is released as answer text,
/// and everything after it streams through unchanged. A call block is never
/// shown as answer text. Nor is an answer that may still be a call written
/// as text (``TextToolCalls``: Qwen2.5 also writes its calls as an indented
/// JSON object in a `json` code fence, which the turn grammar leaves to
/// prose): it is held to the end, where the executor reads it as calls if
/// it is nothing but calls to offered tools with valid arguments.
struct ToolCallRouter {
    /// One call the model wrote: the tool's name and its arguments as
    /// compact JSON.
    struct Call: Equatable {
        var name: String
        var arguments: String
    }

    /// What a finished turn was.
    enum Turn: Equatable {
        /// An answer; any text still held back (an answer that is a prefix
        /// of the marker) with the tokens it took.
        case answer(rest: String, tokenCount: Int)
        /// A block of calls, with the tokens the whole block took.
        case toolCalls([Call], tokenCount: Int)
    }

    private enum Phase {
        case undecided
        case answer
        case toolCalls
    }

    let format: ToolCallFormat
    private var phase = Phase.undecided
    /// The text held back while undecided, then the whole call block.
    private var held = ""
    private var heldTokens = 0
    /// The answer text released so far: the executor reads calls an answer
    /// ends with after introducing them (``TextToolCalls/introducedCalls(in:offered:)``).
    private(set) var released = ""

    init(format: ToolCallFormat = .toolCallTags) {
        self.format = format
    }

    /// Takes the next piece of generated text; returns the answer text to
    /// stream now (with the tokens it carries), if any.
    mutating func route(_ text: String, tokenCount: Int) -> (text: String, tokenCount: Int)? {
        switch phase {
        case .answer:
            released += text
            return (text, tokenCount)
        case .toolCalls:
            held += text
            heldTokens += tokenCount
            return nil
        case .undecided:
            held += text
            heldTokens += tokenCount
            let prefixes = format.callPrefixes
            if prefixes.contains(where: { held.utf8.starts(with: $0.utf8) }) {
                phase = .toolCalls
                return nil
            }
            if prefixes.contains(where: { $0.utf8.starts(with: held.utf8) }) || TextToolCalls.mayBeCall(held) {
                return nil
            }
            phase = .answer
            released += held
            defer {
                held = ""
                heldTokens = 0
            }
            return (held, heldTokens)
        }
    }

    /// The turn, once generation has ended.
    /// - Throws: ``ToolCallRouterError`` when a call block does not hold a
    ///   well-formed list of calls (only possible if generation stopped
    ///   before the block was complete).
    func finish() throws(ToolCallRouterError) -> Turn {
        guard phase == .toolCalls else {
            return .answer(rest: held, tokenCount: heldTokens)
        }
        var calls: [Call] = []
        switch format.style {
        case .jsonArray:
            guard held.hasSuffix(format.close) else {
                throw .incompleteBlock(held)
            }
            let json = String(held.dropFirst(format.open.count).dropLast(format.close.count))
            guard let content = try? GeneratedContent(json: json), content.isComplete,
                case .array(let elements) = content.kind
            else {
                throw .incompleteBlock(held)
            }
            for element in elements {
                calls.append(try Self.call(element, in: held))
            }
        case .hermes:
            // `<open>\n{…}\n<close>` blocks, or bare `{…}` call objects (one
            // per line), separated by line breaks.
            var rest = Substring(held).drop(while: \.isNewline)
            while !rest.isEmpty {
                let json: Substring
                if rest.hasPrefix(format.open) {
                    guard let end = rest.range(of: format.close) else { throw .incompleteBlock(held) }
                    json = rest[rest.index(rest.startIndex, offsetBy: format.open.count)..<end.lowerBound]
                    rest = rest[end.upperBound...]
                } else {
                    let end = rest.firstIndex(of: "\n") ?? rest.endIndex
                    json = rest[..<end]
                    rest = rest[end...]
                }
                guard let content = try? GeneratedContent(json: String(json)), content.isComplete else {
                    throw .incompleteBlock(held)
                }
                calls.append(try Self.call(content, in: held))
                rest = rest.drop(while: \.isNewline)
            }
            guard !calls.isEmpty else { throw .incompleteBlock(held) }
        }
        return .toolCalls(calls, tokenCount: heldTokens)
    }

    /// One call object: `{"name": …, "arguments": …}`.
    private static func call(_ element: GeneratedContent, in block: String) throws(ToolCallRouterError) -> Call {
        guard case .structure(let properties, _) = element.kind,
            case .string(let name)? = properties["name"]?.kind,
            let arguments = properties["arguments"]
        else {
            throw .incompleteBlock(block)
        }
        return Call(name: name, arguments: arguments.jsonString)
    }

    /// The text of a call block as the model writes it: what a transcript's
    /// tool calls are rendered as, so a later turn shows the model exactly
    /// what it generated (bare Hermes calls are shown in their marked
    /// blocks: the history teaches the model the format it was asked for,
    /// at the cost of recomputing that turn's cache).
    static func block(_ calls: [Call], format: ToolCallFormat = .toolCallTags) -> String {
        switch format.style {
        case .jsonArray:
            let list = calls.map { "{\"name\":\(GeneratedContent($0.name).jsonString),\"arguments\":\($0.arguments)}" }
            return format.open + "[" + list.joined(separator: ",") + "]" + format.close
        case .hermes:
            return calls.map { format.hermesHead(name: $0.name) + $0.arguments + format.hermesTail }.joined(separator: "\n")
        }
    }
}

/// A call block that did not parse as a list of calls.
enum ToolCallRouterError: Error, Equatable {
    case incompleteBlock(String)
}
