/// Fixed assumptions of the user model that are not scenario fields.
///
/// None of them is measured by `analyze` or varied by the sensitivity study: they shape how
/// users differ from one another around the scenario's means, never the means themselves.
/// Every result depends on them, so they are named here, each with its reason.
package enum ModelAssumptions {
    /// Coefficient of variation of glances per day between users (a mean-one lognormal factor).
    ///
    /// 0.5: some users look at their Home Screen far more than others, and the sources give no
    /// spread; half the mean keeps most users within a factor of about 2.5 of it.
    package static let glancesUserSpread = 0.5

    /// Glances at a rarely viewed widget as a share of a frequently viewed one's.
    ///
    /// 0.3: a widget "nobody looks at" (the reason iOS gives it a smaller reload budget) is
    /// still seen now and then; fewer than half the glances, without a source for the figure.
    package static let rarelyViewedGlanceShare = 0.3

    /// Concentration (a + b) of the beta distribution from which each user's chance of a Low
    /// Power Mode day is drawn around the run's `lowPowerDayShare`.
    ///
    /// 4: a wide spread (some users almost always in Low Power Mode, most rarely), while keeping
    /// the mean the scenario gives.
    package static let lowPowerHabitConcentration = 4.0

    /// Coefficient of variation of background runs per day between users (a mean-one lognormal factor).
    ///
    /// 0.25: iOS schedules background refresh by each user's app usage, so users differ, but less
    /// than in how often they glance; the sources give no figure.
    package static let backgroundRunsUserSpread = 0.25

    /// How far each user's night is shifted from the scenario's `idleStartHour`, at most, either
    /// way (uniformly).
    ///
    /// 1 hour: people go to bed and wake at different times, so the policy reloads held back
    /// overnight come spread over the morning rather than all at one minute.
    package static let idleStartUserShiftHours = 1.0
}
