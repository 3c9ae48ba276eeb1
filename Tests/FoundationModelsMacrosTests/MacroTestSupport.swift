import FoundationModelsMacroExpansions
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The expansions under test, as the plugin's macro types conform to them.
struct GenerableMacro: GenerableExpansion {}
struct GuideMacro: GuideExpansion {}

/// The macros under test, registered the way the compiler sees them:
/// `@Generable` asks for a `Generable` conformance.
let testMacros: [String: MacroSpec] = [
    "Generable": MacroSpec(type: GenerableMacro.self, conformances: ["Generable"]),
    "Guide": MacroSpec(type: GuideMacro.self),
]

/// Expands `source` with ``testMacros`` and checks the expansion and the
/// diagnostics, reporting mismatches as Swift Testing issues.
func assertExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    macros: [String: MacroSpec] = testMacros,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: macros,
        failureHandler: { failure in
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(
                    fileID: failure.location.fileID,
                    filePath: failure.location.filePath,
                    line: failure.location.line,
                    column: failure.location.column
                )
            )
        },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}
