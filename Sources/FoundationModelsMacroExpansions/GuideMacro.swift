import SwiftSyntax
import SwiftSyntaxMacros

/// The `@Guide` macro. It generates nothing: `@Generable` reads `@Guide`
/// attributes off the properties it analyses. Expanding it only checks that
/// it is attached where it means something — a stored instance property —
/// so a guide on a computed or static property isn't silently ignored.
/// A protocol for the reason ``GenerableExpansion`` is one.
public protocol GuideExpansion: PeerMacro {}

extension GuideExpansion {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if declaration.is(EnumCaseDeclSyntax.self) {
            context.diagnose(GenerableDiagnostic.guideOnEnumCase.at(node))
            return []
        }
        guard let variable = declaration.as(VariableDeclSyntax.self) else {
            context.diagnose(GenerableDiagnostic.guideOnNonStoredProperty.at(node))
            return []
        }
        let isStatic = variable.modifiers.contains {
            $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
        }
        if isStatic {
            context.diagnose(GenerableDiagnostic.guideOnStaticProperty.at(node))
            return []
        }
        let isComputed = variable.bindings.contains { binding in
            binding.accessorBlock.map(PropertyAnalysis.isComputed) ?? false
        }
        if isComputed {
            context.diagnose(GenerableDiagnostic.guideOnNonStoredProperty.at(node))
        }
        return []
    }
}
