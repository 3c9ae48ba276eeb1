import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Expansion of `@Generable` on enums with associated values: a tagged choice with a `"case"` discriminator.
@Suite struct TaggedEnumExpansionTests {
    /// One unlabeled value is `value`, labels are kept, several unlabeled are `_0`, `_1`; a `nil`
    /// optional payload is left out of the content.
    @Test func payloadKeys() {
        assertExpansion(
            #"""
            @Generable(description: "A choice")
            enum Choice {
                case text(String)
                case point(x: Int, y: Int)
                case pair(Int, String)
                case maybe(Double?)
                case none
            }
            """#,
            expandedSource: #"""
                enum Choice {
                    case text(String)
                    case point(x: Int, y: Int)
                    case pair(Int, String)
                    case maybe(Double?)
                    case none

                    nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(
                            type: Self.self,
                            description: "A choice",
                            taggedCases: [
                                FoundationModels.GenerationSchema.TaggedCase(
                                    name: "text",
                                    description: nil,
                                    properties: [
                                        FoundationModels.GenerationSchema.Property(name: "value", type: String.self)
                                    ]
                                ),
                                FoundationModels.GenerationSchema.TaggedCase(
                                    name: "point",
                                    description: nil,
                                    properties: [
                                        FoundationModels.GenerationSchema.Property(name: "x", type: Int.self),
                                        FoundationModels.GenerationSchema.Property(name: "y", type: Int.self)
                                    ]
                                ),
                                FoundationModels.GenerationSchema.TaggedCase(
                                    name: "pair",
                                    description: nil,
                                    properties: [
                                        FoundationModels.GenerationSchema.Property(name: "_0", type: Int.self),
                                        FoundationModels.GenerationSchema.Property(name: "_1", type: String.self)
                                    ]
                                ),
                                FoundationModels.GenerationSchema.TaggedCase(
                                    name: "maybe",
                                    description: nil,
                                    properties: [
                                        FoundationModels.GenerationSchema.Property(name: "value", type: Double?.self)
                                    ]
                                ),
                                FoundationModels.GenerationSchema.TaggedCase(
                                    name: "none",
                                    description: nil,
                                    properties: []
                                )
                            ]
                        )
                    }
                }

                extension Choice: nonisolated FoundationModels.Generable {
                    nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        let caseName = try content.value(String.self, forProperty: "case")
                        switch caseName {
                        case "text":
                            self = try .text(content.value(String.self, forProperty: "value"))
                        case "point":
                            self = try .point(x: content.value(Int.self, forProperty: "x"), y: content.value(Int.self, forProperty: "y"))
                        case "pair":
                            self = try .pair(content.value(Int.self, forProperty: "_0"), content.value(String.self, forProperty: "_1"))
                        case "maybe":
                            self = try .maybe(content.value(Double?.self, forProperty: "value"))
                        case "none":
                            self = .none
                        default:
                            throw Swift.DecodingError.dataCorrupted(Swift.DecodingError.Context(codingPath: [], debugDescription: "Unexpected case \"\(caseName)\" for Choice; expected one of: text, point, pair, maybe, none"))
                        }
                    }
                    nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        switch self {
                        case .text(let _0):
                            return FoundationModels.GeneratedContent(properties: ["case": "text", "value": _0])
                        case .point(let _0, let _1):
                            return FoundationModels.GeneratedContent(properties: ["case": "point", "x": _0, "y": _1])
                        case .pair(let _0, let _1):
                            return FoundationModels.GeneratedContent(properties: ["case": "pair", "_0": _0, "_1": _1])
                        case .maybe(let _0):
                            var properties: [(String, FoundationModels.GeneratedContent)] = []
                            properties.append(("case", "maybe".generatedContent))
                            if let value = _0 {
                                properties.append(("value", value.generatedContent))
                            }
                            return FoundationModels.GeneratedContent(kind: .structure(properties: [String: FoundationModels.GeneratedContent](uniqueKeysWithValues: properties), orderedKeys: properties.map(\.0)))
                        case .none:
                            return FoundationModels.GeneratedContent(properties: ["case": "none"])
                        }
                    }
                }
                """#
        )
    }

    /// With `representNilExplicitlyInGeneratedContent: true`, optional payloads are always written.
    @Test func explicitNil() {
        assertExpansion(
            #"""
            @Generable(representNilExplicitlyInGeneratedContent: true)
            public enum Reply {
                case answer(text: String, confidence: Double?)
                case silence
            }
            """#,
            expandedSource: #"""
                public enum Reply {
                    case answer(text: String, confidence: Double?)
                    case silence

                    public nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(
                            type: Self.self,
                            description: nil,
                            taggedCases: [
                                FoundationModels.GenerationSchema.TaggedCase(
                                    name: "answer",
                                    description: nil,
                                    properties: [
                                        FoundationModels.GenerationSchema.Property(name: "text", type: String.self),
                                        FoundationModels.GenerationSchema.Property(name: "confidence", type: Double?.self)
                                    ]
                                ),
                                FoundationModels.GenerationSchema.TaggedCase(
                                    name: "silence",
                                    description: nil,
                                    properties: []
                                )
                            ]
                        )
                    }
                }

                extension Reply: nonisolated FoundationModels.Generable {
                    public nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        let caseName = try content.value(String.self, forProperty: "case")
                        switch caseName {
                        case "answer":
                            self = try .answer(text: content.value(String.self, forProperty: "text"), confidence: content.value(Double?.self, forProperty: "confidence"))
                        case "silence":
                            self = .silence
                        default:
                            throw Swift.DecodingError.dataCorrupted(Swift.DecodingError.Context(codingPath: [], debugDescription: "Unexpected case \"\(caseName)\" for Reply; expected one of: answer, silence"))
                        }
                    }
                    public nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        switch self {
                        case .answer(let _0, let _1):
                            return FoundationModels.GeneratedContent(properties: ["case": "answer", "text": _0, "confidence": _1])
                        case .silence:
                            return FoundationModels.GeneratedContent(properties: ["case": "silence"])
                        }
                    }
                }
                """#
        )
    }
}
