import FoundationModelsMacroExpansions
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Expansion of `@Generable` on structs: schema, `PartiallyGenerated`, `init(_:)`, `generatedContent`.
@Suite struct StructExpansionTests {
    /// Every `@Guide` form, an optional, arrays, a nested Generable type; computed and
    /// static properties are ignored and a `let` with a value is skipped with a warning.
    @Test func guidesOptionalsArraysAndSkippedMembers() {
        assertExpansion(
            #"""
            @Generable(description: "D")
            struct S {
                @Guide(description: "u", .range(1...5))
                var urgency: Int
                var tags: [String]
                var price: Double?
                @Guide(description: "c", /[A-Z]{2}[0-9]+/)
                var code: String
                var cards: [DraftCard]
                var id: String { "x" }
                static var shared = S.make()
                let version = 2
            }
            """#,
            expandedSource: #"""
                struct S {
                    var urgency: Int
                    var tags: [String]
                    var price: Double?
                    var code: String
                    var cards: [DraftCard]
                    var id: String { "x" }
                    static var shared = S.make()
                    let version = 2

                    nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(
                            type: Self.self,
                            description: "D",
                            properties: [
                                FoundationModels.GenerationSchema.Property(name: "urgency", description: "u", type: Int.self, guides: [.range(1 ... 5)]),
                                FoundationModels.GenerationSchema.Property(name: "tags", type: [String].self),
                                FoundationModels.GenerationSchema.Property(name: "price", type: Double?.self),
                                FoundationModels.GenerationSchema.Property(name: "code", description: "c", type: String.self, guides: [/[A-Z]{2}[0-9]+/]),
                                FoundationModels.GenerationSchema.Property(name: "cards", type: [DraftCard].self)
                            ]
                        )
                    }

                    nonisolated struct PartiallyGenerated: Identifiable, Sendable, FoundationModels.ConvertibleFromGeneratedContent {
                        var id: FoundationModels.GenerationID
                        var urgency: Int.PartiallyGenerated?
                        var tags: [String].PartiallyGenerated?
                        var price: Double.PartiallyGenerated?
                        var code: String.PartiallyGenerated?
                        var cards: [DraftCard].PartiallyGenerated?
                        nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                            self.id = content.id ?? FoundationModels.GenerationID()
                            self.urgency = try content.value(forProperty: "urgency")
                            self.tags = try content.value(forProperty: "tags")
                            self.price = try content.value(forProperty: "price")
                            self.code = try content.value(forProperty: "code")
                            self.cards = try content.value(forProperty: "cards")
                        }
                    }
                }

                extension S: nonisolated FoundationModels.Generable {
                    nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        self.urgency = try content.value(forProperty: "urgency")
                        self.tags = try content.value(forProperty: "tags")
                        self.price = try content.value(forProperty: "price")
                        self.code = try content.value(forProperty: "code")
                        self.cards = try content.value(forProperty: "cards")
                    }
                    nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        var properties: [(String, FoundationModels.GeneratedContent)] = []
                        properties.append(("urgency", self.urgency.generatedContent))
                        properties.append(("tags", self.tags.generatedContent))
                        if let value = self.price {
                            properties.append(("price", value.generatedContent))
                        }
                        properties.append(("code", self.code.generatedContent))
                        properties.append(("cards", self.cards.generatedContent))
                        return FoundationModels.GeneratedContent(kind: .structure(properties: [String: FoundationModels.GeneratedContent](uniqueKeysWithValues: properties), orderedKeys: properties.map(\.0)))
                    }
                }
                """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'let' property 'version' has an initial value and is not generated; make it 'var' to let the model generate it",
                    line: 12,
                    column: 9,
                    severity: .warning
                )
            ]
        )
    }

    /// A public type gets public members; the 26.4 flag reaches the schema and writes `nil` as `null`;
    /// a `GenerationID` property is the content's id, not a generated property.
    @Test func publicTypeWithExplicitNilAndGenerationID() {
        assertExpansion(
            #"""
            @Generable(description: "A person", representNilExplicitlyInGeneratedContent: true)
            public struct Person {
                @Guide(description: "Name")
                public var name: String
                public var nickname: String?
                public var id: GenerationID
            }
            """#,
            expandedSource: #"""
                public struct Person {
                    public var name: String
                    public var nickname: String?
                    public var id: GenerationID

                    public nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(
                            type: Self.self,
                            description: "A person",
                            representNilExplicitlyInGeneratedContent: true,
                            properties: [
                                FoundationModels.GenerationSchema.Property(name: "name", description: "Name", type: String.self),
                                FoundationModels.GenerationSchema.Property(name: "nickname", type: String?.self)
                            ]
                        )
                    }

                    public nonisolated struct PartiallyGenerated: Identifiable, Sendable, FoundationModels.ConvertibleFromGeneratedContent {
                        public var id: FoundationModels.GenerationID
                        public var name: String.PartiallyGenerated?
                        public var nickname: String.PartiallyGenerated?
                        public nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                            self.id = content.id ?? FoundationModels.GenerationID()
                            self.name = try content.value(forProperty: "name")
                            self.nickname = try content.value(forProperty: "nickname")
                        }
                    }
                }

                extension Person: nonisolated FoundationModels.Generable {
                    public nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        self.name = try content.value(forProperty: "name")
                        self.nickname = try content.value(forProperty: "nickname")
                        self.id = content.id ?? FoundationModels.GenerationID()
                    }
                    public nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        FoundationModels.GeneratedContent(properties: ["name": self.name, "nickname": self.nickname], id: self.id)
                    }
                }
                """#
        )
    }

    /// When the type already declares `Generable`, the compiler passes no protocols and the
    /// extension adds only the members.
    @Test func typeAlreadyDeclaringGenerable() {
        assertExpansion(
            #"""
            @Generable
            struct Already: Generable {
                var value: Int
            }
            """#,
            expandedSource: #"""
                struct Already: Generable {
                    var value: Int

                    nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(
                            type: Self.self,
                            description: nil,
                            properties: [
                                FoundationModels.GenerationSchema.Property(name: "value", type: Int.self)
                            ]
                        )
                    }

                    nonisolated struct PartiallyGenerated: Identifiable, Sendable, FoundationModels.ConvertibleFromGeneratedContent {
                        var id: FoundationModels.GenerationID
                        var value: Int.PartiallyGenerated?
                        nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                            self.id = content.id ?? FoundationModels.GenerationID()
                            self.value = try content.value(forProperty: "value")
                        }
                    }
                }

                extension Already {
                    nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        self.value = try content.value(forProperty: "value")
                    }
                    nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        FoundationModels.GeneratedContent(properties: ["value": self.value])
                    }
                }
                """#,
            macros: ["Generable": MacroSpec(type: GenerableMacro.self), "Guide": MacroSpec(type: GuideMacro.self)]
        )
    }

    /// A user `id` property becomes `PartiallyGenerated.id`; `var a, b: Int` gives both a type;
    /// observed properties are stored; `lazy` ones are not generated; an array-length guide passes through.
    @Test func userIDMultipleBindingsObserversAndLazy() {
        assertExpansion(
            #"""
            @Generable
            struct Item {
                var id: String
                @Guide(.count(3))
                var labels: [String]
                var a, b: Int
                var flag: Bool = false {
                    didSet {}
                }
                lazy var cache: Int = 0
            }
            """#,
            expandedSource: #"""
                struct Item {
                    var id: String
                    var labels: [String]
                    var a, b: Int
                    var flag: Bool = false {
                        didSet {}
                    }
                    lazy var cache: Int = 0

                    nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(
                            type: Self.self,
                            description: nil,
                            properties: [
                                FoundationModels.GenerationSchema.Property(name: "id", type: String.self),
                                FoundationModels.GenerationSchema.Property(name: "labels", type: [String].self, guides: [.count(3)]),
                                FoundationModels.GenerationSchema.Property(name: "a", type: Int.self),
                                FoundationModels.GenerationSchema.Property(name: "b", type: Int.self),
                                FoundationModels.GenerationSchema.Property(name: "flag", type: Bool.self)
                            ]
                        )
                    }

                    nonisolated struct PartiallyGenerated: Identifiable, Sendable, FoundationModels.ConvertibleFromGeneratedContent {
                        var id: String.PartiallyGenerated?
                        var labels: [String].PartiallyGenerated?
                        var a: Int.PartiallyGenerated?
                        var b: Int.PartiallyGenerated?
                        var flag: Bool.PartiallyGenerated?
                        nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                            self.id = try content.value(forProperty: "id")
                            self.labels = try content.value(forProperty: "labels")
                            self.a = try content.value(forProperty: "a")
                            self.b = try content.value(forProperty: "b")
                            self.flag = try content.value(forProperty: "flag")
                        }
                    }
                }

                extension Item: nonisolated FoundationModels.Generable {
                    nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        self.id = try content.value(forProperty: "id")
                        self.labels = try content.value(forProperty: "labels")
                        self.a = try content.value(forProperty: "a")
                        self.b = try content.value(forProperty: "b")
                        self.flag = try content.value(forProperty: "flag")
                    }
                    nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        FoundationModels.GeneratedContent(properties: ["id": self.id, "labels": self.labels, "a": self.a, "b": self.b, "flag": self.flag])
                    }
                }
                """#
        )
    }

    /// A struct without stored properties still conforms.
    @Test func emptyStruct() {
        assertExpansion(
            #"""
            @Generable
            struct Empty {
            }
            """#,
            expandedSource: #"""
                struct Empty {

                    nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(
                            type: Self.self,
                            description: nil,
                            properties: []
                        )
                    }

                    nonisolated struct PartiallyGenerated: Identifiable, Sendable, FoundationModels.ConvertibleFromGeneratedContent {
                        var id: FoundationModels.GenerationID
                        nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                            self.id = content.id ?? FoundationModels.GenerationID()
                        }
                    }
                }

                extension Empty: nonisolated FoundationModels.Generable {
                    nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                    }
                    nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        FoundationModels.GeneratedContent(properties: [:])
                    }
                }
                """#
        )
    }

    /// `package` access, a generic property, and `Optional<Int>` recognised as optional.
    @Test func genericPackageStructWithSpelledOptional() {
        assertExpansion(
            #"""
            @Generable
            package struct Box<Content: Generable> {
                var content: Content
                var spelled: Optional<Int>
            }
            """#,
            expandedSource: #"""
                package struct Box<Content: Generable> {
                    var content: Content
                    var spelled: Optional<Int>

                    package nonisolated static var generationSchema: FoundationModels.GenerationSchema {
                        FoundationModels.GenerationSchema(
                            type: Self.self,
                            description: nil,
                            properties: [
                                FoundationModels.GenerationSchema.Property(name: "content", type: Content.self),
                                FoundationModels.GenerationSchema.Property(name: "spelled", type: Int?.self)
                            ]
                        )
                    }

                    package nonisolated struct PartiallyGenerated: Identifiable, Sendable, FoundationModels.ConvertibleFromGeneratedContent {
                        package var id: FoundationModels.GenerationID
                        package var content: Content.PartiallyGenerated?
                        package var spelled: Int.PartiallyGenerated?
                        package nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                            self.id = content.id ?? FoundationModels.GenerationID()
                            self.content = try content.value(forProperty: "content")
                            self.spelled = try content.value(forProperty: "spelled")
                        }
                    }
                }

                extension Box: nonisolated FoundationModels.Generable {
                    package nonisolated init(_ content: FoundationModels.GeneratedContent) throws {
                        self.content = try content.value(forProperty: "content")
                        self.spelled = try content.value(forProperty: "spelled")
                    }
                    package nonisolated var generatedContent: FoundationModels.GeneratedContent {
                        var properties: [(String, FoundationModels.GeneratedContent)] = []
                        properties.append(("content", self.content.generatedContent))
                        if let value = self.spelled {
                            properties.append(("spelled", value.generatedContent))
                        }
                        return FoundationModels.GeneratedContent(kind: .structure(properties: [String: FoundationModels.GeneratedContent](uniqueKeysWithValues: properties), orderedKeys: properties.map(\.0)))
                    }
                }
                """#
        )
    }
}
