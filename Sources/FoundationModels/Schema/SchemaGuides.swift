import GuidedGeneration

/// Applies ``GenerationGuide``s to the schema node of the value they guide.
///
/// Exists so guides from `@Guide`, `Property(…guides:)` and
/// `DynamicGenerationSchema(type:guides:)` all narrow schemas the same way.
/// Guides are typed (`GenerationGuide<Int>` only offers numeric guides), so
/// each guide always meets the node kind it is meant for.
package enum SchemaGuides {
    package static func apply(_ guides: [GuideKind], to node: SchemaNode) -> SchemaNode {
        guides.reduce(node) { apply($1, to: $0) }
    }

    package static func apply(_ guide: GuideKind, to node: SchemaNode) -> SchemaNode {
        switch (node, guide) {
        case (.string(var string), .constant(let value)):
            string.constant = value
            return .string(string)
        case (.string(var string), .anyOf(let values)):
            string.choices = values
            return .string(string)
        case (.string(var string), .pattern(let pattern)):
            if let existing = string.pattern, existing != pattern {
                string.unsupportedGuides.append("a second pattern (\(pattern)) on a value already guided by the pattern \(existing)")
            } else {
                string.pattern = pattern
            }
            return .string(string)
        case (.string(var string), .unsupportedPattern(let reason)):
            string.unsupportedGuides.append(reason)
            return .string(string)
        case (.integer(let bounds), _):
            return .integer(applyBounds(guide, to: bounds))
        case (.number(let bounds), _):
            return .number(applyBounds(guide, to: bounds))
        case (.array(var array), .minimumCount(let count)):
            array.minimumCount = count
            return .array(array)
        case (.array(var array), .maximumCount(let count)):
            array.maximumCount = count
            return .array(array)
        case (.array(var array), .count(let lower, let upper)):
            array.minimumCount = lower
            array.maximumCount = upper
            return .array(array)
        case (.array(var array), .element(let elementGuide)):
            array.items = apply(elementGuide, to: array.items)
            return .array(array)
        default:
            // Unreachable through the typed public API (see the type's doc).
            return node
        }
    }

    private static func applyBounds(_ guide: GuideKind, to bounds: NumberNode) -> NumberNode {
        var bounds = bounds
        switch guide {
        case .minimum(let value):
            bounds.minimum = value
        case .maximum(let value):
            bounds.maximum = value
        case .range(let lower, let upper):
            bounds.minimum = lower
            bounds.maximum = upper
        default:
            break
        }
        return bounds
    }
}
