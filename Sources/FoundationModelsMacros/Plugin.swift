import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin entry point: registers the `@Generable` and `@Guide`
/// macro implementations with the compiler.
@main
struct FoundationModelsMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        GenerableMacro.self,
        GuideMacro.self,
        SessionPropertyEntryMacro.self,
    ]
}
