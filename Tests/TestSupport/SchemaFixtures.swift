/// Schemas more than one test target writes prompts and answers for: the
/// library's schema and on-device tests, and fm's command-line tests.
package enum SchemaFixtures {
    /// A configuration object as large schemas write them (Kubernetes,
    /// SchemaStore): few fields, each documented at length. `paragraphs`
    /// sets the length: each adds about 140 tokens to every field.
    package static func documentedSchema(paragraphs: Int) -> String {
        let fields: [(name: String, type: String, summary: String)] = [
            ("name", #""type":"string","maxLength":30"#, "The name of the deployment, unique within its namespace."),
            ("replicas", #""type":"integer","minimum":0,"maximum":20"#, "Number of desired pods, between 0 and 20."),
            ("tier", #""enum":["frontend","backend","batch"]"#, "The tier the deployment belongs to."),
            ("paused", #""type":"boolean""#, "Whether the deployment is paused."),
            ("strategy", #""enum":["Recreate","RollingUpdate"]"#, "How existing pods are replaced by new ones."),
        ]
        let paragraph =
            "This field is read by the controller on every reconciliation and is validated against the cluster's admission policies before it is stored. "
            + "Changing it triggers a new rollout unless the deployment is paused, in which case the change is recorded and applied when the deployment resumes. "
            + "Operators should consult the platform documentation for the limits that apply in their cluster, which may be stricter than the ones stated here, "
            + "and for the interaction of this field with autoscalers, disruption budgets and the scheduler's placement constraints. "
            + "Values outside the documented range are rejected by the API server with a validation error naming the field. "
        let properties = fields.map { field in
            "\"\(field.name)\":{\(field.type),\"description\":\"\(field.summary) \(String(repeating: paragraph, count: paragraphs))\"}"
        }
        return #"{"type":"object","additionalProperties":false,"properties":{"# + properties.joined(separator: ",")
            + #"},"required":["name","replicas","tier","paused","strategy"]}"#
    }
}
