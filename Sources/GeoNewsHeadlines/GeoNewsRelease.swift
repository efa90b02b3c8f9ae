/// The release of the GeoNews package, as providers see it in the `User-Agent` header.
public enum GeoNewsRelease {
    /// Semantic version of this release.
    public static let version = "0.5.0"
}
