-- Version 10 for PostgreSQL (0010_void_hands.sql says why): a constraint is altered in
-- place here, so nothing is rebuilt; the constraint names are PostgreSQL's defaults from
-- migration 1.

ALTER TABLE ledger_ops DROP CONSTRAINT ledger_ops_kind_check;
ALTER TABLE ledger_ops ADD CONSTRAINT ledger_ops_kind_check
    CHECK (kind IN ('opening', 'hand', 'penalty', 'adjustment', 'void'));
ALTER TABLE ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check
    CHECK (kind IN ('opening', 'hand', 'penalty', 'adjustment', 'void'));

CREATE TABLE voided_hands (
    op_id      BIGINT PRIMARY KEY REFERENCES ledger_ops (op_id),
    void_op_id BIGINT NOT NULL REFERENCES ledger_ops (op_id)
);
