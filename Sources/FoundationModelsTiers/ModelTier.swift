import FoundationModels

/// How far from the user's machine a model runs, and so how much it can
/// do and what leaves the machine: the on-device model, a private server of
/// the user's own (Private Cloud Compute), or a third-party frontier model.
///
/// Ordered by reach: `onDevice < privateCloud < frontier`. A policy's
/// ceiling is the furthest tier a feature may use.
public enum ModelTier: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case onDevice
    case privateCloud
    case frontier

    public static func < (lhs: ModelTier, rhs: ModelTier) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether a prompt served on this tier leaves the machine.
    public var leavesMachine: Bool { self != .onDevice }

    public var description: String {
        switch self {
        case .onDevice: "onDevice"
        case .privateCloud: "privateCloud"
        case .frontier: "frontier"
        }
    }
}

/// A feature's declared use of the tiers: the furthest tier it may use, and
/// whether it may fall back to nearer tiers when that one cannot serve.
public struct TierPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The furthest tier the feature may use; tried first.
    public var ceiling: ModelTier
    /// Whether a tier that cannot serve (rate limited, unreachable, out of
    /// quota, its model unavailable) hands the request to the next nearer tier.
    public var degrades: Bool

    public init(ceiling: ModelTier, degrades: Bool) {
        self.ceiling = ceiling
        self.degrades = degrades
    }

    /// Nothing leaves the machine.
    public static let local = TierPolicy(ceiling: .onDevice, degrades: false)
    /// The user's own server, falling back to the device.
    public static let cloudFree = TierPolicy(ceiling: .privateCloud, degrades: true)
    /// A frontier model, falling back to the private server, then the device.
    public static let premium = TierPolicy(ceiling: .frontier, degrades: true)

    /// The tiers this policy may use, furthest first.
    public var ladder: [ModelTier] {
        ModelTier.allCases.filter { $0 <= ceiling }.sorted(by: >).prefix(degrades ? ModelTier.allCases.count : 1).map { $0 }
    }

    public var description: String {
        switch self {
        case .local: "local"
        case .cloudFree: "cloudFree"
        case .premium: "premium"
        default: "ceiling \(ceiling)\(degrades ? ", degrades" : "")"
        }
    }
}

/// One feature's declared policy, as ``ModelRouter/declaredPolicies()`` lists it.
public struct FeaturePolicy: Sendable, Hashable {
    /// The feature's name, as the app calls it.
    public var feature: String
    public var policy: TierPolicy

    /// The tiers the feature may send its prompts to that leave the machine.
    public var tiersLeavingMachine: [ModelTier] { policy.ladder.filter(\.leavesMachine) }
}
