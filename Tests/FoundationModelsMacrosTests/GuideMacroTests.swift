import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Guide` expands to nothing; it only checks that it sits on a stored
/// instance property, where `@Generable` will read it.
@Suite struct GuideMacroTests {
    @Test func storedPropertyExpandsToNothing() {
        assertExpansion(
            """
            struct T {
                @Guide(description: "Name")
                var name: String
                @Guide(.range(1...3))
                var count: Int {
                    didSet {}
                }
            }
            """,
            expandedSource: """
                struct T {
                    var name: String
                    var count: Int {
                        didSet {}
                    }
                }
                """
        )
    }

    @Test func computedProperty() {
        assertExpansion(
            """
            struct T {
                @Guide(description: "computed")
                var c: Int { 1 }
            }
            """,
            expandedSource: """
                struct T {
                    var c: Int { 1 }
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'@Guide' can only be applied to a stored property", line: 2, column: 5)
            ]
        )
    }

    @Test func staticProperty() {
        assertExpansion(
            """
            struct T {
                @Guide(description: "static")
                static let s: Int = 1
            }
            """,
            expandedSource: """
                struct T {
                    static let s: Int = 1
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'@Guide' can't be applied to a static property", line: 2, column: 5)
            ]
        )
    }

    @Test func function() {
        assertExpansion(
            """
            struct T {
                @Guide(description: "function")
                func f() {}
            }
            """,
            expandedSource: """
                struct T {
                    func f() {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'@Guide' can only be applied to a stored property", line: 2, column: 5)
            ]
        )
    }

    @Test func enumCaseWarns() {
        assertExpansion(
            """
            enum E {
                @Guide(description: "a")
                case a
            }
            """,
            expandedSource: """
                enum E {
                    case a
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: "'@Guide' has no effect on an enum case", line: 2, column: 5, severity: .warning)
            ]
        )
    }
}
