"""Recall: understand a question, gather seeds, expand them through the graph, rank them
in time and return cited packets; entity cards and timelines."""
