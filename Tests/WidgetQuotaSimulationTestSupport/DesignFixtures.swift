import WidgetQuotaModel

/// Designs that tests of several modules describe and simulate.
package enum DesignFixtures {
    /// The product owner's weather widget from the scenario example.
    package static var weather: Design {
        var d = Design(name: "weather")
        d.fetchTriggers = [.appForeground, .backgroundTask]
        d.cacheTTLMinutes = 45
        d.reloadPolicy = .after(minutes: 30)
        d.backgroundIntervalHours = 2
        return d
    }
}
