import FoundationModelsMacroExpansions
import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin entry point: registers the `@Generable`, `@Guide` and
/// `@SessionPropertyEntry` macros with the compiler.
///
/// The compiler asks for a macro by module and type name (`#externalMacro`
/// in FoundationModels), so the types it names live here; what they do is in
/// `FoundationModelsMacroExpansions`, a plain library the expansion tests
/// import. (A test that imported this plugin module would have SwiftPM build
/// the whole test product, and everything it depends on, a second time for
/// the host.)
@main
struct FoundationModelsMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        GenerableMacro.self,
        GuideMacro.self,
        SessionPropertyEntryMacro.self,
    ]
}

/// `@Generable` (FoundationModels' `Generable` macros).
public struct GenerableMacro: GenerableExpansion {}

/// `@Guide`.
public struct GuideMacro: GuideExpansion {}

/// `@SessionPropertyEntry`.
public struct SessionPropertyEntryMacro: SessionPropertyEntryExpansion {}
