import SwiftSyntax

/// The access modifier generated members carry, derived from the type's own.
///
/// A `public` type's `Generable` conformance needs `public` witnesses (and a
/// public `PartiallyGenerated`); `package` likewise. Anything less visible
/// gets no modifier, so members default to the type's own visibility.
enum AccessLevel {
    /// The modifier plus a trailing space (`"public "`), or an empty string.
    static func prefix(for declaration: some DeclGroupSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open):
                return "public "
            case .keyword(.package):
                return "package "
            default:
                continue
            }
        }
        return ""
    }
}
