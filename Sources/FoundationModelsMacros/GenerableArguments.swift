import SwiftSyntax

/// The arguments written on a `@Generable(...)` attribute.
///
/// The description is kept as the expression the user wrote (it is passed
/// through verbatim into the schema); the nil-representation flag must be a
/// literal because it changes the shape of the generated code.
struct GenerableArguments {
    /// The `description:` expression, if one was written.
    var description: ExprSyntax?
    /// The value of `representNilExplicitlyInGeneratedContent:`, if written (26.4).
    var representNilExplicitly: Bool?

    /// Whether a `nil` optional is written as `null` in generated content.
    var writesNilAsNull: Bool { representNilExplicitly ?? false }

    init(attribute: AttributeSyntax, log: inout DiagnosticLog) {
        guard case .argumentList(let arguments) = attribute.arguments else { return }
        for argument in arguments {
            switch argument.label?.text {
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
