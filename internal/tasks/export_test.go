package tasks

// DriverName lets tests open stores through a wrapping driver.
var DriverName = &driverName
