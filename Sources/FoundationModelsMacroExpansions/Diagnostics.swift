import SwiftDiagnostics
import SwiftSyntax

/// Every diagnostic the `@Generable` and `@Guide` macros emit.
///
/// Each case has a stable identifier (its case name) and a stable message, so
/// tests and tooling can match on them. The macros report problems through
/// these messages instead of crashing or producing code that fails to compile
/// with a confusing error far from the cause.
enum GenerableDiagnostic: DiagnosticMessage {
    /// `@Generable` is attached to something other than a struct or enum.
    case unsupportedDeclaration(kind: String)
    /// A stored property has no type annotation, so the macro can't name its type.
    case missingTypeAnnotation(property: String)
    /// A stored property uses a tuple or other non-identifier pattern.
    case unsupportedPattern
    /// A `let` with an initial value can't be assigned by `init(_:)`; it is skipped.
    case constantWithInitialValue(property: String)
    /// A property carries more than one `@Guide`.
    case multipleGuides(property: String)
    /// A `description:` argument is an interpolated string.
    case interpolatedDescription
    /// `representNilExplicitlyInGeneratedContent:` is not a Boolean literal.
    case nonLiteralRepresentNil
    /// An enum has no cases.
    case enumWithoutCases
    /// Two enum cases share a base name.
    case duplicateCaseName(name: String)
    /// An associated value's key collides with the discriminator or another key.
    case duplicatePayloadKey(caseName: String, key: String)
    /// `@Guide` is attached to something other than a stored property.
    case guideOnNonStoredProperty
    /// `@Guide` is attached to a static or class property.
    case guideOnStaticProperty
    /// `@Guide` is attached to an enum case, where it has no effect.
    case guideOnEnumCase

    var message: String {
        switch self {
        case .unsupportedDeclaration(let kind):
            return "'@Generable' can only be applied to a struct or an enum, not to \(kind)"
        case .missingTypeAnnotation(let property):
            return "stored property '\(property)' of a '@Generable' type needs an explicit type annotation"
        case .unsupportedPattern:
            return "'@Generable' supports only simple stored properties; declare each property with its own name and type"
        case .constantWithInitialValue(let property):
            return "'let' property '\(property)' has an initial value and is not generated; make it 'var' to let the model generate it"
        case .multipleGuides(let property):
            return "property '\(property)' has more than one '@Guide'; combine them into a single '@Guide'"
        case .interpolatedDescription:
            return "'description' must be a string literal without interpolation"
        case .nonLiteralRepresentNil:
            return "'representNilExplicitlyInGeneratedContent' must be the literal 'true' or 'false'"
        case .enumWithoutCases:
            return "a '@Generable' enum needs at least one case"
        case .duplicateCaseName(let name):
            return "a '@Generable' enum can't have more than one case named '\(name)'"
        case .duplicatePayloadKey(let caseName, let key):
            return
                "associated value '\(key)' of case '\(caseName)' collides with another key of its generated content; \"case\" is reserved and keys must be unique"
        case .guideOnNonStoredProperty:
            return "'@Guide' can only be applied to a stored property"
        case .guideOnStaticProperty:
            return "'@Guide' can't be applied to a static property"
        case .guideOnEnumCase:
            return "'@Guide' has no effect on an enum case"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .unsupportedDeclaration: id = "unsupportedDeclaration"
        case .missingTypeAnnotation: id = "missingTypeAnnotation"
        case .unsupportedPattern: id = "unsupportedPattern"
        case .constantWithInitialValue: id = "constantWithInitialValue"
        case .multipleGuides: id = "multipleGuides"
        case .interpolatedDescription: id = "interpolatedDescription"
        case .nonLiteralRepresentNil: id = "nonLiteralRepresentNil"
        case .enumWithoutCases: id = "enumWithoutCases"
        case .duplicateCaseName: id = "duplicateCaseName"
        case .duplicatePayloadKey: id = "duplicatePayloadKey"
        case .guideOnNonStoredProperty: id = "guideOnNonStoredProperty"
        case .guideOnStaticProperty: id = "guideOnStaticProperty"
        case .guideOnEnumCase: id = "guideOnEnumCase"
        }
        return MessageID(domain: "FoundationModelsMacros", id: id)
    }

    var severity: DiagnosticSeverity {
        switch self {
        case .constantWithInitialValue, .guideOnEnumCase:
            return .warning
        default:
            return .error
        }
    }

    /// A diagnostic of this kind anchored at `node`.
    func at(_ node: some SyntaxProtocol) -> Diagnostic {
        Diagnostic(node: Syntax(node), message: self)
    }
}

/// Collects the diagnostics of one analysis, so the member and extension
/// roles of `@Generable` can share the analysis but report only once.
struct DiagnosticLog {
    private(set) var diagnostics: [Diagnostic] = []

    /// Whether any collected diagnostic is an error (the expansion is then skipped).
    var hasErrors: Bool {
        diagnostics.contains { $0.diagMessage.severity == .error }
    }

    mutating func report(_ message: GenerableDiagnostic, at node: some SyntaxProtocol) {
        diagnostics.append(message.at(node))
    }
}
