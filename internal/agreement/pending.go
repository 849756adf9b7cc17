package agreement

// pendingGroups holds groups of rows whose units wait to be looked up
// together (see interner.ids): each group's unit name, and its rows, their
// offsets being lines.
type pendingGroups struct {
	names batch
	rows  []profileRow
	ends  []int // end of each group's rows in rows
	ids   []int32
}

func (pg *pendingGroups) len() int { return pg.names.len() }

// add adds a group of rows of the unit named unit, its first row on line.
func (pg *pendingGroups) add(unit []byte, group []profileRow, line int32) {
	pg.names.add(unit)
	for _, r := range group {
		r.offset += line
		pg.rows = append(pg.rows, r)
	}
	pg.ends = append(pg.ends, len(pg.rows))
}

// file looks the groups' units up in names, adding the new ones, and adds
// their rows to ur, then empties pg. The units' records are read first,
// together, as the batch reads the names' slots. alias (see
// ratingsReader.alias) maps a name id to its first; first, unless nil,
// gets the line of the first row of each new name, in id order.
func (pg *pendingGroups) file(names *interner, ur *unitRows, alias []int32, first *[][]int32) {
	if pg.len() == 0 {
		return
	}
	ids := pg.ids[:0]
	names.ids(&pg.names, func(_ int, id int32) { ids = append(ids, id) })
	var sink uint32
	for _, id := range ids {
		sink += ur.touch(id)
	}
	names.sink += sink
	from, known := 0, 0
	if first != nil {
		known = blocksLen(*first)
	}
	for i, id := range ids {
		if int(id) < len(alias) {
			id = alias[id]
		}
		if first != nil && int(id) == known {
			*first = appendBlock(*first, pg.rows[from].offset)
			known++
		}
		for _, r := range pg.rows[from:pg.ends[i]] {
			ur.add(id, r)
		}
		from = pg.ends[i]
	}
	pg.ids, pg.rows, pg.ends = ids[:0], pg.rows[:0], pg.ends[:0]
}

// blocksLen is the number of values in blocks made by appendBlock.
func blocksLen[T any](blocks [][]T) int {
	if len(blocks) == 0 {
		return 0
	}
	return (len(blocks)-1)*blockSize + len(blocks[len(blocks)-1])
}
