package tasks

// DriverName lets tests open stores through a wrapping driver.
var DriverName = &driverName

// ExportApartBetween lets tests write between the start of an export's
// transaction and that of the second one that reads its labels or
// sentences.
var ExportApartBetween = &exportApartBetween

// HoldSecondConnection takes the store's one permit to read on a second
// connection, so that readings made meanwhile use one; release gives it
// back.
func HoldSecondConnection(s *Store) (release func()) {
	s.reportApart <- struct{}{}
	return func() { <-s.reportApart }
}
