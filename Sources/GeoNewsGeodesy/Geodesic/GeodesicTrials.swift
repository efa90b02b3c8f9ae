// The intermediate results the inverse problem passes between its steps (Karney 2013, §5).

/// A first azimuth for Newton's method, or the whole answer for a short line.
struct InverseStart {
    /// σ₁₂ in radians when the short-line solution is final; −1 otherwise.
    var sig12: Double
    var salp1: Double, calp1: Double
    /// α₂, set only for a final short line.
    var salp2: Double, calp2: Double
    /// The mean of dn over the short line, scaling its sphere to radius b·dnm.
    var dnm: Double
}

/// The hybrid problem of Karney (2013), §5: given β₁, β₂ and a trial azimuth α₁, follow the
/// geodesic to latitude β₂ and measure the longitude difference it reaches.
struct HybridSolution {
    /// λ₁₂(α₁) minus the wanted longitude difference, radians: zero at the solution.
    var lam12: Double
    var salp1: Double, calp1: Double
    var salp2: Double, calp2: Double
    /// Arc length on the auxiliary sphere, radians.
    var sig12: Double
    var ssig1: Double, csig1: Double
    var ssig2: Double, csig2: Double
    /// ε of eq. (16) for this geodesic.
    var eps: Double
    /// ∂λ₁₂/∂α₁, eq. (46); NaN when not asked for.
    var dlam12: Double
}
