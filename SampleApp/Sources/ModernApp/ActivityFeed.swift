import EndpointKit
import EndpointKitStreaming

/// The team's activity as newline-delimited JSON, one ``Activity`` a line, while it happens.
struct ActivityFeed: StreamingRequest {
    var path: RequestPath { "/activity" }
    var format: StreamFormat<Activity> { .ndjson(Activity.self) }
}
