"""The games core shared by both match runners: the clock (``clock``), openings
(``openings``), game jobs and records (``records``) and the refereeing player
(``player``)."""
