import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The `@SessionPropertyEntry` macro: turns a stored-looking property in an
/// extension of `SessionPropertyValues` into one backed by the session's
/// table, with a key type holding its default.
///
/// ```swift
/// extension SessionPropertyValues {
///     @SessionPropertyEntry var tone: String = "friendly"
/// }
/// ```
///
/// expands to accessors `get { self[__Key_tone.self] }` /
/// `set { self[__Key_tone.self] = newValue }` and a peer
/// `nonisolated enum __Key_tone: SessionPropertyKey` whose `defaultValue`
/// is the initial value (or `nil` for an optional without one). A protocol
/// for the reason ``GenerableExpansion`` is one.
public protocol SessionPropertyEntryExpansion: AccessorMacro, PeerMacro {}

/// What `@SessionPropertyEntry` reads off the property it is attached to.
struct SessionPropertyEntry {
    var name: String
    var type: TypeSyntax
    var defaultValue: String

    static func entry(of declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext, diagnose: Bool) -> SessionPropertyEntry? {
        guard let variable = declaration.as(VariableDeclSyntax.self),
            variable.bindingSpecifier.tokenKind == .keyword(.var),
            variable.bindings.count == 1,
            let binding = variable.bindings.first,
            let pattern = binding.pattern.as(IdentifierPatternSyntax.self)
        else {
            if diagnose { context.diagnose(Diagnostic(node: declaration, message: EntryMessage.notAVariable)) }
            return nil
        }
        guard let type = binding.typeAnnotation?.type.trimmed else {
            if diagnose { context.diagnose(Diagnostic(node: binding, message: EntryMessage.missingType)) }
            return nil
        }
        let isOptional = type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
        guard let value = binding.initializer?.value.trimmedDescription ?? (isOptional ? "nil" : nil) else {
            if diagnose { context.diagnose(Diagnostic(node: binding, message: EntryMessage.missingDefault)) }
            return nil
        }
        return SessionPropertyEntry(name: pattern.identifier.trimmedDescription, type: type, defaultValue: value)
    }
}

extension SessionPropertyEntryExpansion {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let entry = SessionPropertyEntry.entry(of: declaration, in: context, diagnose: true) else { return [] }
        let key = "__Key_\(entry.name)"
        return [
            "get { self[\(raw: key).self] }",
            "set { self[\(raw: key).self] = newValue }",
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let entry = SessionPropertyEntry.entry(of: declaration, in: context, diagnose: false) else { return [] }
        return [
            """
            nonisolated enum __Key_\(raw: entry.name): FoundationModels.SessionPropertyKey {
            nonisolated static var defaultValue: \(entry.type) { \(raw: entry.defaultValue) }
            }
            """
        ]
    }
}

enum EntryMessage: String, DiagnosticMessage {
    case notAVariable
    case missingType
    case missingDefault

    var message: String {
        switch self {
        case .notAVariable: "@SessionPropertyEntry applies to one 'var' property in an extension of SessionPropertyValues"
        case .missingType: "@SessionPropertyEntry needs the property's type written out (var tone: String = \"friendly\")"
        case .missingDefault: "@SessionPropertyEntry needs a default value (= …) unless the type is optional"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "FoundationModelsMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}
