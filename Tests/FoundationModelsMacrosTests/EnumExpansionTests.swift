import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Expansion of `@Generable` on enums without associated values: a choice among the case names.
@Suite struct EnumExpansionTests {
    /// Case names (backticks removed) are the choices; an unknown string throws `DecodingError`.
    @Test func simpleEnum() {
        assertExpansion(
            #"""
            @Generable(description: "How it feels")
            enum Mood {
                case happy, sad
                case `default`
            }
            """#,
            expandedSource: #"""
                enum Mood {
                    case happy, sad
                    case `default`

                    nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(type: Self.self, description: "How it feels", anyOf: ["happy", "sad", "default"])
                    }
                }

                extension Mood: nonisolated FoundationModels.Generable {
                    nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        let value = try content.value(String.self)
                        switch value {
                        case "happy":
                            self = .happy
                        case "sad":
                            self = .sad
                        case "default":
                            self = .`default`
                        default:
                            throw Swift.DecodingError.dataCorrupted(Swift.DecodingError.Context(codingPath: [], debugDescription: "Unexpected value \"\(value)\" for Mood; expected one of: happy, sad, default"))
                        }
                    }
                    nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        switch self {
                        case .happy:
                            FoundationModels.GeneratedContent("happy")
                        case .sad:
                            FoundationModels.GeneratedContent("sad")
                        case .`default`:
                            FoundationModels.GeneratedContent("default")
                        }
                    }
                }
                """#
        )
    }

    /// A public enum gets public members; raw values don't change the generated names.
    @Test func publicRawValueEnum() {
        assertExpansion(
            #"""
            @Generable
            public enum Level: String {
                case low = "L"
                case high = "H"
            }
            """#,
            expandedSource: #"""
                public enum Level: String {
                    case low = "L"
                    case high = "H"

                    public nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(type: Self.self, description: nil, anyOf: ["low", "high"])
                    }
                }

                extension Level: nonisolated FoundationModels.Generable {
                    public nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        let value = try content.value(String.self)
                        switch value {
                        case "low":
                            self = .low
                        case "high":
                            self = .high
                        default:
                            throw Swift.DecodingError.dataCorrupted(Swift.DecodingError.Context(codingPath: [], debugDescription: "Unexpected value \"\(value)\" for Level; expected one of: low, high"))
                        }
                    }
                    public nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        switch self {
                        case .low:
                            FoundationModels.GeneratedContent("low")
                        case .high:
                            FoundationModels.GeneratedContent("high")
                        }
                    }
                }
                """#
        )
    }
}
