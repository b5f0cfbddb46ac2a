check kubectl:-
