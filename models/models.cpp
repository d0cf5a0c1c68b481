// models layer
