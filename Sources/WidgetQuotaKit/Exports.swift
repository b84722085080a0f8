// The library's public face: `import WidgetQuotaKit` is enough for a program that embeds it. The
// jobs take and return types of these layers (a scenario, designs, results, findings, reports).
@_exported import WidgetQuotaGates
@_exported import WidgetQuotaLint
@_exported import WidgetQuotaLogs
@_exported import WidgetQuotaModel
@_exported import WidgetQuotaReporting
@_exported import WidgetQuotaSimulation
@_exported import WidgetQuotaStudies
@_exported import WidgetQuotaSupport
