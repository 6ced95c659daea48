import Foundation

extension APIClient.Configuration {
    /// The features a client assembles from this configuration, once, in the order their stages
    /// run on the way out (see ``RequestStage``): a download resumes its partial file, a stream
    /// gets its body sink (and stops retries once it delivered an element), the cache may answer,
    /// the connectivity monitor may fail fast, interceptors adapt and then decide retries (before
    /// the retrier, which the execution asks last), and plugins hear what is really sent. A
    /// feature that is not configured is not in the list; downloads and streams serve only their
    /// own response types, so a plain request on a plain client meets none.
    func makeFeatures() -> [any ClientFeature] {
        var features: [any ClientFeature] = [DownloadFeature(folder: partialDownloadsDirectory)]
        if let cache { features.append(CacheFeature(cache: cache, defaultPolicy: cachePolicy)) }
        if failsFastWhenOffline, let connectivity {
            features.append(OfflineFeature(stage: OfflineStage(monitor: connectivity)))
        }
        if !interceptors.isEmpty {
            features.append(InterceptionFeature(stage: InterceptionStage(interceptors: interceptors)))
        }
        if !plugins.isEmpty { features.append(PluginFeature(stage: PluginStage(plugins: plugins))) }
        return features
    }
}
