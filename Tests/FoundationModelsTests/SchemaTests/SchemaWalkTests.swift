import Testing

@testable import FoundationModels

extension SchemaTests {
    @Suite("Walking the IR")
    struct Walking {
        @Test("forEachNode visits the root and every definition without following references")
        func visitsAll() {
            var kinds: [String] = []
            Contact.generationSchema.forEachNode { node in
                switch node {
                case .object: kinds.append("object")
                case .reference(let name): kinds.append("ref:\(name)")
                case .array: kinds.append("array")
                case .string: kinds.append("string")
                case .integer: kinds.append("integer")
                default: kinds.append("other")
                }
            }
            #expect(
                kinds == [
                    "object", "ref:Address", "array", "ref:Address", "ref:Person",  // Contact
                    "object", "string", "string",  // Address
                    "object", "string", "integer", "string",  // Person
                ])
        }

        @Test("recursive schemas terminate and resolve references")
        func recursion() {
            let schema = TreeNode.generationSchema
            #expect(SchemaWalk.referencedNames(in: [schema.root]) == ["TreeNode"])
            #expect(schema.resolve("TreeNode") == schema.root)
            #expect(schema.resolve("Missing") == nil)
        }
    }
}
