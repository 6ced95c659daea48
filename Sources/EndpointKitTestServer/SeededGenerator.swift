/// SplitMix64: a small, fast random number generator whose sequence is fixed by its seed, so a
/// run (a soak's mix of requests, a ``LinkImpairer``'s faults) can be replayed from its seed.
///
/// ```swift
/// var generator = SeededGenerator(seed: 42)
/// let delay = Double.random(in: 0...0.05, using: &generator)   // the same for every run of seed 42
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Starts the sequence of `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
