import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Generable` reports what it can't generate with one clear diagnostic and
/// generates nothing for that type, instead of crashing or emitting code
/// that fails to compile.
@Suite struct DiagnosticsTests {
    @Test func classIsRejected() {
        assertExpansion(
            """
            @Generable
            final class C {
                var x: Int = 0
            }
            """,
            expandedSource: """
                final class C {
                    var x: Int = 0
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Generable' can only be applied to a struct or an enum, not to a class",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func actorIsRejected() {
        assertExpansion(
            """
            @Generable
            actor A {
            }
            """,
            expandedSource: """
                actor A {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Generable' can only be applied to a struct or an enum, not to an actor",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func protocolIsRejected() {
        assertExpansion(
            """
            @Generable
            protocol P {
            }
            """,
            expandedSource: """
                protocol P {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Generable' can only be applied to a struct or an enum, not to a protocol",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func extensionIsRejected() {
        assertExpansion(
            """
            @Generable
            extension Int {
            }
            """,
            expandedSource: """
                extension Int {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Generable' can only be applied to a struct or an enum, not to an extension",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func storedPropertyWithoutTypeAnnotation() {
        assertExpansion(
            """
            @Generable
            struct T {
                var count = 1
            }
            """,
            expandedSource: """
                struct T {
                    var count = 1
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "stored property 'count' of a '@Generable' type needs an explicit type annotation",
                    line: 3,
                    column: 9
                )
            ]
        )
    }

    @Test func tuplePattern() {
        assertExpansion(
            """
            @Generable
            struct T {
                var (a, b): (Int, Int)
            }
            """,
            expandedSource: """
                struct T {
                    var (a, b): (Int, Int)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Generable' supports only simple stored properties; declare each property with its own name and type",
                    line: 3,
                    column: 9
                )
            ]
        )
    }

    @Test func moreThanOneGuide() {
        assertExpansion(
            """
            @Generable
            struct T {
                @Guide(description: "a")
                @Guide(.range(1...2))
                var a: Int
            }
            """,
            expandedSource: """
                struct T {
                    var a: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "property 'a' has more than one '@Guide'; combine them into a single '@Guide'",
                    line: 4,
                    column: 5
                )
            ]
        )
    }

    /// The schema is static, so a description can't interpolate values.
    @Test func interpolatedGuideDescription() {
        assertExpansion(
            #"""
            @Generable
            struct T {
                @Guide(description: "Up to \(limit) words")
                var summary: String
            }
            """#,
            expandedSource: """
                struct T {
                    var summary: String
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'description' must be a string literal without interpolation",
                    line: 3,
                    column: 25
                )
            ]
        )
    }

    @Test func interpolatedTypeDescription() {
        assertExpansion(
            #"""
            @Generable(description: "\(name)")
            struct T {
            }
            """#,
            expandedSource: """
                struct T {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'description' must be a string literal without interpolation",
                    line: 1,
                    column: 25
                )
            ]
        )
    }

    @Test func nonLiteralRepresentNil() {
        assertExpansion(
            """
            @Generable(representNilExplicitlyInGeneratedContent: flag)
            struct T {
            }
            """,
            expandedSource: """
                struct T {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'representNilExplicitlyInGeneratedContent' must be the literal 'true' or 'false'",
                    line: 1,
                    column: 54
                )
            ]
        )
    }

    @Test func duplicateCaseNames() {
        assertExpansion(
            """
            @Generable
            enum E {
                case value(Int)
                case value(text: String)
            }
            """,
            expandedSource: """
                enum E {
                    case value(Int)
                    case value(text: String)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a '@Generable' enum can't have more than one case named 'value'",
                    line: 4,
                    column: 10
                )
            ]
        )
    }

    @Test func payloadLabelNamedCase() {
        assertExpansion(
            """
            @Generable
            enum E {
                case b(case: Int)
            }
            """,
            expandedSource: """
                enum E {
                    case b(case: Int)
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        #"associated value 'case' of case 'b' collides with another key of its generated content; "case" is reserved and keys must be unique"#,
                    line: 3,
                    column: 12
                )
            ]
        )
    }

    @Test func enumWithoutCases() {
        assertExpansion(
            """
            @Generable
            enum Never2 {
            }
            """,
            expandedSource: """
                enum Never2 {
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "a '@Generable' enum needs at least one case",
                    line: 2,
                    column: 6
                )
            ]
        )
    }
}
