import SwiftSyntax

/// The arguments written on a `@Generable(...)` attribute.
///
/// The description is kept as the expression the user wrote (it is passed
/// through verbatim into the schema); the nil-representation flag must be a
/// literal because it changes the shape of the generated code.
struct GenerableArguments {
    /// The `name:` expression (27): the schema's name instead of the type's.
    var name: ExprSyntax?
    /// The `description:` expression, if one was written.
    var description: ExprSyntax?
    /// The value of `representNilExplicitlyInGeneratedContent:`, if written (26.4).
    var representNilExplicitly: Bool?

    /// Whether a `nil` optional is written as `null` in generated content.
    var writesNilAsNull: Bool { representNilExplicitly ?? false }

    /// `schema` (the text of a `GenerationSchema` expression) under the
    /// `name:` the attribute gives, if any.
    func named(_ schema: String) -> String {
        guard let name else { return schema }
        return "\(schema)._named(\(name))"
    }

    init(attribute: AttributeSyntax, log: inout DiagnosticLog) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            switch argument.label?.text {
            case "name":
                name = argument.expression.trimmed
            case "description":
                if DescriptionCheck.isInterpolated(argument.expression) {
                    log.report(.interpolatedDescription, at: argument.expression)
                }
                description = argument.expression.trimmed
            case "representNilExplicitlyInGeneratedContent":
                if let literal = argument.expression.as(BooleanLiteralExprSyntax.self) {
                    representNilExplicitly = literal.literal.tokenKind == .keyword(.true)
                } else {
                    log.report(.nonLiteralRepresentNil, at: argument.expression)
                }
            default:
                continue
            }
        }
    }
}

/// Checks `description:` arguments: the schema is static, so an interpolated
/// description (which could capture instance state) is rejected.
enum DescriptionCheck {
    static func isInterpolated(_ expression: ExprSyntax) -> Bool {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return false }
        return literal.segments.contains { $0.is(ExpressionSegmentSyntax.self) }
    }
}
