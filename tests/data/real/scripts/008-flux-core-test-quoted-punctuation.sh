#flux: --output='Test_quoted.{{id}}.out'
#flux: --output=Test_unquoted.{{id}}.out
#flux: --output=Test_unquoted.-out
#flux: --output=Test_unquoted.:out
#flux: --output=Test_unquoted.@out
#flux: --output=Test[unquoted]
